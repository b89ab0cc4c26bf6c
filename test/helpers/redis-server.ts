// A redis-server of the test's own (never the machine's 6379): /usr/bin/redis-server on a free
// loopback port, no persistence (--save "" --appendonly no), its working directory a temporary
// one of its own. For fault tests that stop, pause or kill Redis under a running service.
// The process is also SIGKILLed when the test process exits, so a failed test (or a paused
// server: SIGSTOP survives its parent) never leaves one behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/lib/child.ts';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Why a test that needs its own Redis cannot run here, or undefined. */
export const noRedisServer: string | undefined = spawnSync(REDIS_SERVER, ['--version']).status === 0 ? undefined : `${REDIS_SERVER} is not installed: this fault test runs a Redis of its own`;

export interface OwnRedis {
  port: number;
  url: string;
  process: ChildProcess;
  /** SIGSTOP: the server keeps its sockets open and answers nothing (a frozen VM, a long GC pause, a stuck disk). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGKILL, resolved once it has exited. */
  kill(): Promise<void>;
  /** Starts a new server on the same port and directory (after kill()); resolves once it answers PING. */
  restart(): Promise<void>;
  /** kill() and remove its directory. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

function launch(port: number, dir: string): ChildProcess {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

async function answersPing(port: number, child: ChildProcess): Promise<void> {
  const stop = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    if (spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().includes('PONG')) return;
    if (Date.now() > stop) throw new Error(`redis-server on port ${port} did not answer PING within 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRedisServer(opts: { port?: number } = {}): Promise<OwnRedis> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-redis-'));
  let child = launch(port, dir);
  const kill = () => new Promise<void>((resolve) => {
    const c = child;
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL'); // a stopped process dies of SIGKILL too
  });
  try {
    await answersPing(port, child);
  } catch (err) {
    await kill();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get process() {
      return child;
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    kill,
    async restart() {
      await kill();
      child = launch(port, dir);
      await answersPing(port, child);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
