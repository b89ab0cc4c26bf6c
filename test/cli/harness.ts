// Test harness for the CLI: the real bundle (built privately per test file), the real
// service as a child process (so NODE_EXTRA_CA_CERTS is read at its start, like in
// production), and a small front that logs every request the CLI makes to the API.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { reapOnExit } from '../../bench/lib/child.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Bundle the CLI with the project's build script into a private folder; returns the path of cli.mjs. */
export function buildCli(): { cli: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-cli-build-'));
  execFileSync(process.execPath, [path.join(root, 'scripts/build-cli.ts'), '--outdir', dir], { stdio: 'pipe' });
  return { cli: path.join(dir, 'cli.mjs'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface CliRun { code: number | null; stdout: string; stderr: string }

/** Spawn the CLI with a clean environment (only PATH plus `env`), as CI would. */
export function runCli(cli: string, args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = reapOnExit(spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

export interface ServiceProcess { url: string; stop(): Promise<void> }

/** `node src/main.js` on a fresh SQLite file, configured only through its environment ("{port}" in a value becomes the chosen port). */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-cli-svc-'));
  const port = await freePort();
  const child = reapOnExit(spawn(process.execPath, [path.join(root, 'src/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail'), LOG_LEVEL: 'info', ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll('{port}', String(port))])),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let out = '';
  child.stderr.on('data', (c: Buffer) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    // A ceiling, not a speed claim: on a loaded machine start-up can take a while.
    const timer = setTimeout(() => {
      // Never leave a service that did not start behind: it outlived its test before.
      child.kill('SIGKILL');
      reject(new Error(`service did not start: ${out}`));
    }, 120_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (/"msg":"listening"/.test(out)) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited ${code}: ${out}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Front {
  url: string;
  /** "METHOD /path" of every request that reached the API through this front. */
  log: string[];
  /** When on, the first successful POST /scan answer is replayed to every later POST /scan (a retried or cached answer). */
  replayScans: boolean;
  close(): Promise<void>;
}

/** A logging pass-through in front of the API. */
export async function startFront(target: string): Promise<Front> {
  let replay: { status: number; headers: Record<string, string>; body: Buffer } | undefined;
  const front: Front = { url: '', log: [], replayScans: false, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    front.log.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const isScan = req.method === 'POST' && req.url === '/scan';
    if (isScan && front.replayScans && replay) return void res.writeHead(replay.status, replay.headers).end(replay.body);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))) as Record<string, string>;
    const up = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await up.arrayBuffer());
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
    });
    if (isScan && up.status === 200 && !replay) replay = { status: 200, headers: out, body };
    res.writeHead(up.status, out).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return front;
}

/** A stand-in API that answers every request with one fixed status and JSON body, and counts requests. */
export async function startFixedApi(status: number, body: unknown, headers: Record<string, string> = {}): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The operator token the CLI tests start the service with, and a partner key made with it (POST /internal/api-keys). */
export const OPERATOR_TOKEN = 'operator-token-0123456789';

export async function operatorKey(url: string, dailyScans = 1000): Promise<string> {
  const res = await fetch(`${url}/internal/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'CLI Partner', dailyScans }) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /internal/api-keys answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { key: string }).key;
}
