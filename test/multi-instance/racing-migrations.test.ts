// A rolling deploy on an empty PostgreSQL database: four service processes (src/main.ts)
// start at once while two CPU-burning processes slow everything down (the load under which
// knex's own lock table creation used to race and kill an instance at start). Every one of
// them must come up and answer /health 200; the migrations ran once.
// Needs TEST_DATABASE_URL; skipped loudly without it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { migrations } from '../../src/storage/migrations/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const skip = DB ? undefined : 'TEST_DATABASE_URL not set: the racing-migrations test needs a PostgreSQL server';
const opt = skip ? { skip } : {};

/** A busy loop in its own process: one core's worth of competition. */
function burner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

describe('four instances racing their migrations on an empty PostgreSQL database', () => {
  const dbName = `race_migrations_${randomBytes(4).toString('hex')}`;
  let dir: string;
  const burners: ChildProcess[] = [];
  const children: Child[] = [];
  let starts: PromiseSettledResult<Child>[] = [];

  before(async () => {
    if (skip) return;
    dir = mkdtempSync(path.join(os.tmpdir(), 'race-migrations-'));
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`CREATE DATABASE ${dbName}`);
    await admin.destroy();
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    const env = { DATABASE_URL: url.toString(), MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://race.test', LOG_LEVEL: 'warn' };
    burners.push(burner(), burner());
    starts = await Promise.allSettled(Array.from({ length: 4 }, () => spawnService(env, { timeoutMs: 180_000 })));
    for (const s of starts) if (s.status === 'fulfilled') children.push(s.value);
  });

  after(async () => {
    for (const b of burners) b.kill('SIGKILL');
    await Promise.all(children.map((c) => c.stop()));
    if (skip) return;
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('all four instances started at once under CPU load come up and answer /health 200', opt, async () => {
    const failures = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    assert.deepEqual(failures, [], 'an instance did not come up');
    for (const c of children) {
      const res = await fetch(`${c.url}/health`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
  });

  test('the raced migrations are each recorded exactly once', opt, async () => {
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    const db = knex({ client: 'pg', connection: url.toString() });
    try {
      const rows = await db('knex_migrations').select('name');
      assert.deepEqual(rows.map((r: { name: string }) => r.name).sort(), migrations.map((m) => m.name).sort());
    } finally {
      await db.destroy();
    }
  });
});
