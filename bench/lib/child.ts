// Child processes for benchmarks: the real service (src/main.js) and the bare Express
// baseline, each on its own free port, with a way to wait for readiness and stop them.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

/**
 * The Node flags `npm start` runs the service with (package.json), so a benchmark measures what
 * production runs. Passing `nodeArgs` explicitly (e.g. `[]` for V8's own heap sizing) replaces them.
 */
export const START_NODE_FLAGS: readonly string[] = startFlags();

function startFlags(): string[] {
  const start = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const m = /^node((?:\s+--[\w-]+(?:=\S+)?)*)\s+src\/main\.js$/.exec(start);
  if (!m) throw new Error(`package.json's start script is not "node [--flags] src/main.js": ${start}`);
  return m[1]!.trim().split(/\s+/).filter(Boolean);
}

// Children still alive when this process exits, for any reason (a failed readiness wait, a
// test cut short, a benchmark that threw): they are killed then, so no src/main.js outlives
// the test or benchmark that started it.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Kills `child` with SIGKILL if this process exits before it. */
export function reapOnExit<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Waits for readiness; a child that never gets ready is killed before the error is thrown. */
async function readyOrKilled(child: ChildProcess, ready: Promise<unknown>): Promise<void> {
  try {
    await ready;
  } catch (err) {
    await stopper(child)('SIGKILL');
    throw err;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  url: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the first 200 on the ready path. */
  readyMs: number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  for (;;) {
    if (exited !== undefined) throw new Error(`the child exited with ${exited} before it answered ${url}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(500) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Stops a child and resolves once it has exited (SIGKILL after 10 s): the next measurement must
 * not share the machine with it. A test world still closing a 200-scan burst's connections took
 * CPU from the next burst and let more of its scans hold connections at once, which showed as
 * 1.3-1.6 MiB per scan in flight where a quiet machine gives 1.0 (bench/results.md, notes).
 */
function stopper(child: ChildProcess) {
  return (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', (code) => { clearTimeout(kill); resolve(code); });
      child.kill(signal);
    });
}

/** Starts the test world (test/world/main.ts) in a child process; resolves with the environment it prints. */
export async function startWorld(latencyMs: number): Promise<{ env: Record<string, string>; pid: number; stop: () => Promise<number | null> }> {
  const child = reapOnExit(spawn(process.execPath, ['test/world/main.ts', '--latency', String(latencyMs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }));
  let out = '';
  await readyOrKilled(child, new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('networkA leaves from')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the world exited with ${code}`)));
  }));
  const env: Record<string, string> = {};
  for (const m of out.matchAll(/^export (\w+)='([^']*)'$/gm)) env[m[1]!] = m[2]!;
  return { env, pid: child.pid!, stop: stopper(child) };
}

/** Starts src/main.js with the given environment; resolves once GET /health answers 200. */
export async function spawnService(env: Record<string, string>, opts: { port?: number; stdout?: 'ignore' | 'inherit' | 'pipe'; timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<Child> {
  const port = opts.port ?? (await freePort());
  const started = performance.now();
  const child = reapOnExit(spawn(process.execPath, [...(opts.nodeArgs ?? START_NODE_FLAGS), 'src/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...(process.env.BENCH_MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX } : {}), ...(process.env.BENCH_TLS_COUNT_FILE ? { BENCH_TLS_COUNT_FILE: process.env.BENCH_TLS_COUNT_FILE } : {}), ...env },
    stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit'],
  }));
  const url = `http://127.0.0.1:${port}`;
  await readyOrKilled(child, waitReady(`${url}/health`, child, opts.timeoutMs ?? 90_000));
  return { url, process: child, readyMs: performance.now() - started, stop: stopper(child) };
}

/**
 * Starts several services at once (their migrations race, as instances of one deployment do).
 * If one fails, the others are stopped before the error is thrown: `Promise.all` alone left a
 * started service running and holding the test's process open.
 */
export async function spawnServices<E extends Record<string, string>[]>(envs: [...E], opts: Parameters<typeof spawnService>[1] = {}): Promise<{ [K in keyof E]: Child }> {
  const settled = await Promise.allSettled(envs.map((env) => spawnService(env, opts)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (!failed) return settled.map((r) => (r as PromiseFulfilledResult<Child>).value) as { [K in keyof E]: Child };
  await Promise.all(settled.map((r) => (r.status === 'fulfilled' ? r.value.stop('SIGKILL') : undefined)));
  throw failed.reason;
}

/** Starts the bare Express hello-world (bench/lib/hello.ts). */
export async function spawnHello(): Promise<Child> {
  const started = performance.now();
  const child = reapOnExit(spawn(process.execPath, [path.join(root, 'bench/lib/hello.ts')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }));
  let port = 0;
  await readyOrKilled(child, new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`hello exited with ${code}`)));
  }).then(async (p) => {
    port = p;
    await waitReady(`http://127.0.0.1:${p}/`, child, 10_000);
  }));
  const url = `http://127.0.0.1:${port}`;
  return { url, process: child, readyMs: performance.now() - started, stop: stopper(child) };
}
