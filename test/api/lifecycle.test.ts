// The real process, as `npm start` runs it: starts on a fresh data directory, serves,
// and stops cleanly on SIGTERM; a restart finds its modules in the compile cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { reapOnExit } from '../../bench/lib/child.ts';

type Service = ChildProcessByStdio<null, Readable, Readable>;

/** Prints, as the process exits, whether Node loaded its TypeScript stripper (amaro) at any point. */
const REPORT_STRIPPER = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(2, `stripper loaded: ${process.moduleLoadList.some((m) => m.includes('amaro'))}\\n`));",
)}`;

/** `node [nodeArgs] src/main.js` with `dir` as its temporary folder; resolves once it says where it listens. */
async function start(dir: string, dbFile: string, nodeArgs: string[] = []): Promise<{ child: Service; url: string; output: () => string }> {
  // Its default place: NODE_COMPILE_CACHE would turn the cache on by itself, without main.js.
  const { NODE_COMPILE_CACHE: _set, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  const child = reapOnExit(spawn(process.execPath, [...nodeArgs, 'src/main.js'], {
    env: { ...inherited, TMPDIR: dir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dbFile}`, MAIL_DIR: path.join(dir, 'mail') },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a service that never said it listens must not outlive the test
      reject(new Error(`no "listening" line: ${out}`));
    }, 20000);
    const look = () => {
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', look);
      resolve(m[1]!);
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url, output: () => out };
}

async function stop(child: Service): Promise<number | null> {
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

test('npm start creates its SQLite file, fills the compile cache, serves /health, and exits 0 on SIGTERM', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-start-'));
  const dbFile = path.join(dir, 'nested', 'data.sqlite');
  const compileCache = path.join(dir, 'node-compile-cache');
  const { child, url, output } = await start(dir, dbFile);
  try {
    const res = await fetch(`${url}/health`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { ok: boolean }).ok, true);
    assert.ok(fs.existsSync(dbFile), 'the database file and its folder are created');
    // Written once the service listens (src/main.js), so the next start is warm even if this one is killed.
    const cached = fs.readdirSync(compileCache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(cached.length > 100, `the compile cache holds the service's modules (${cached.length} files)`);
    assert.equal(await stop(child), 0);
    assert.match(output(), /shutting down/);
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a restart with a warm compile cache never loads Node\'s TypeScript stripper, and the first start does', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-restart-'));
  const dbFile = path.join(dir, 'data.sqlite');
  try {
    // The first start strips every module's types; the entry (plain JavaScript) turns the cache
    // on before any of them loads, so a restart reads them all stripped and compiled.
    for (const expected of [true, false]) {
      const { child, url, output } = await start(dir, dbFile, ['--import', REPORT_STRIPPER]);
      try {
        assert.equal((await fetch(`${url}/health`)).status, 200);
        assert.equal(await stop(child), 0);
        assert.match(output(), new RegExp(`stripper loaded: ${expected}`), output());
      } finally {
        child.kill('SIGKILL');
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
