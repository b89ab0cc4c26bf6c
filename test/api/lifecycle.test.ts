// The real process, as `npm start` runs it: starts on a fresh data directory, serves,
// and stops cleanly on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

test('npm start creates its SQLite file, fills the compile cache, serves /health, and exits 0 on SIGTERM', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-start-'));
  const dbFile = path.join(dir, 'nested', 'data.sqlite');
  // Its default place: NODE_COMPILE_CACHE would turn the cache on by itself, without main.ts.
  const compileCache = path.join(dir, 'node-compile-cache');
  const { NODE_COMPILE_CACHE: _set, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: { ...inherited, TMPDIR: dir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dbFile}`, MAIL_DIR: path.join(dir, 'mail') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line: ${out}`)), 20000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/health`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { ok: boolean }).ok, true);
    assert.ok(fs.existsSync(dbFile), 'the database file and its folder are created');
    // Written once the service listens (src/main.ts), so the next start is warm even if this one is killed.
    const cached = fs.readdirSync(compileCache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(cached.length > 100, `the compile cache holds the service's modules (${cached.length} files)`);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.match(out, /shutting down/);
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
