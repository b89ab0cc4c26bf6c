// `npm ci --omit=dev && npm start` must run the service on a machine whose own Node is too old
// for TypeScript (this one has Node 20): a fresh copy of the repository (the files git tracks,
// nothing built, no node_modules) is installed without devDependencies, started with
// `npm start` exactly as an operator would, and must answer GET /health with 200. Run by .ci/run.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-production-'));
const started = Date.now();
const say = (m: string) => console.log(`production install: ${m} (${Math.round((Date.now() - started) / 1000)} s)`);

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

let child: ReturnType<typeof spawn> | undefined;
try {
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  // The tracked files as they are in the working tree: what a clone of this commit holds.
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root }).toString('utf8').split('\0').filter((f) => f && fs.existsSync(path.join(root, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(app, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(app, f));
  }
  say(`copied ${files.length} files`);
  // PATH without this project's node_modules/.bin: the machine's own Node runs npm, as for an operator.
  const PATH = (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules')).join(path.delimiter);
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app, stdio: 'inherit', env: { ...process.env, PATH } });
  if (fs.existsSync(path.join(app, 'node_modules/esbuild'))) throw new Error('esbuild (a devDependency) was installed by npm ci --omit=dev');
  say('npm ci --omit=dev done');

  const port = await freePort();
  child = spawn('npm', ['start'], {
    cwd: app,
    env: { PATH, HOME: process.env.HOME ?? dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  await new Promise<void>((resolve, reject) => {
    // A ceiling for a loaded machine, not a speed claim.
    const timer = setTimeout(() => reject(new Error(`npm start did not listen within 120 s:\n${out}`)), 120_000);
    const poll = setInterval(() => {
      if (/"msg":"listening"/.test(out)) { clearTimeout(timer); clearInterval(poll); resolve(); }
    }, 100);
    child!.once('exit', (code) => { clearTimeout(timer); clearInterval(poll); reject(new Error(`npm start exited ${code}:\n${out}`)); });
  });
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET /health answered ${res.status}: ${body}`);
  const node = /"node":"([^"]+)"/.exec(out)?.[1];
  say(`npm start listened and GET /health answered 200: ${body}${node ? ` (Node ${node})` : ''}`);
} catch (err) {
  console.error(`production install FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  if (child?.pid && child.exitCode === null) {
    // npm start's whole process group: npm and the service under it.
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
