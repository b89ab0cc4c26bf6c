// A rolling deploy or an autoscaler starts several instances on one PostgreSQL database at
// once. Here four src/main.js processes start together on an empty database while two busy
// loops keep both cores saturated (the condition under which knex's unlocked creation of its
// lock table used to kill one instance), and every one of them must come up and agree on the
// schema. Needs TEST_DATABASE_URL; skipped loudly without it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { reapOnExit, spawnService, type Child } from '../../bench/lib/child.ts';
import { migrations } from '../../src/storage/migrations/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const skip = DB ? undefined : 'TEST_DATABASE_URL not set: racing migrations need a PostgreSQL database';
const INSTANCES = 4;

function burner(): ChildProcess {
  return reapOnExit(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

describe('instances started at once on an empty PostgreSQL database', { skip }, () => {
  const dbName = `race_${randomBytes(4).toString('hex')}`;
  let dir: string;
  let burners: ChildProcess[] = [];
  let children: PromiseSettledResult<Child>[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'race-'));
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`CREATE DATABASE ${dbName}`);
    await admin.destroy();
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    burners = [burner(), burner()];
    children = await Promise.allSettled(Array.from({ length: INSTANCES }, (_, i) => spawnService({
      DATABASE_URL: url.toString(), MAIL_DIR: path.join(dir, `mail-${i}`), BASE_URL: 'http://race.test',
    }, { timeoutMs: 180_000 })));
  });

  after(async () => {
    for (const b of burners) b.kill('SIGKILL');
    for (const c of children) if (c.status === 'fulfilled') await c.value.stop();
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('all four instances answer /health while two CPU burners run', async () => {
    const failed = children.flatMap((c, i) => (c.status === 'rejected' ? [`instance ${i}: ${(c.reason as Error).message}`] : []));
    assert.deepEqual(failed, []);
    for (const c of children) {
      const res = await fetch(`${(c as PromiseFulfilledResult<Child>).value.url}/health`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
  });

  test('each migration is recorded exactly once after the race', async () => {
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    const db = knex({ client: 'pg', connection: url.toString() });
    try {
      const rows = await db('knex_migrations').select('name').orderBy('id');
      assert.deepEqual(rows.map((r: { name: string }) => r.name), migrations.map((m) => m.name));
    } finally {
      await db.destroy();
    }
  });
});
