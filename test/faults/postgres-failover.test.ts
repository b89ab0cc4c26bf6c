// A PostgreSQL failover (or a restart, or an idle-connection reaper) drops every connection the
// service holds. The instance must not crash: a request caught in the drop may fail with the
// Error shape, and requests after it are served on fresh connections. Here every backend of the
// service's database is terminated under a running src/main.js. Needs TEST_DATABASE_URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';

const DB = process.env.TEST_DATABASE_URL;
const skip = DB ? undefined : 'TEST_DATABASE_URL not set: the failover test needs a PostgreSQL database';

describe('fault: PostgreSQL drops every connection', { skip }, () => {
  const dbName = `failover_${randomBytes(4).toString('hex')}`;
  let dir: string;
  let service: Child;
  let exited = false;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'failover-'));
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`CREATE DATABASE ${dbName}`);
    await admin.destroy();
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    service = await spawnService({ DATABASE_URL: url.toString(), MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://failover.test' }, { timeoutMs: 60_000 });
    service.process.once('exit', () => { exited = true; });
  });

  after(async () => {
    await service?.stop();
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const badge = () => rawRequest(service.url, { method: 'GET', path: '/badge/never-scanned.example.svg', headers: { Accept: 'image/svg+xml' }, timeoutMs: 20_000 });

  test('after every backend is terminated the instance keeps running and serves reads again', async () => {
    assert.equal((await badge()).status, 404, 'a database read before the drop');
    const admin = knex({ client: 'pg', connection: DB });
    try {
      const killed = await admin.raw('select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [dbName]);
      assert.ok(Number(killed.rows[0].n) >= 1, 'the service held at least one connection');
    } finally {
      await admin.destroy();
    }
    const stop = Date.now() + 30_000;
    const seen: number[] = [];
    for (;;) {
      const res = await badge();
      seen.push(res.status);
      // Caught in the drop: the Error shape, never a crash or an HTML page.
      if (res.status >= 500) conforms(res);
      else assert.equal(res.status, 404);
      if (res.status === 404) break;
      assert.ok(Date.now() < stop, `reads never recovered: ${seen.join(', ')}`);
    }
    assert.equal(exited, false, 'the process must not exit');
  });
});
