// Acceptance, distributed: two instances on one PostgreSQL and one Redis share a batch; one is
// SIGKILLed midway; the batch finishes on the other, every domain appears exactly once in the
// results, and no domain was archived twice for the batch. Needs TEST_DATABASE_URL and
// TEST_REDIS_URL; skipped loudly without them.
import { createDatabase } from '../helpers/pg-database.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { Redis } from 'ioredis';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean).join(' and ');
const skip = missing ? `${missing} not set: the two-instance batch test needs a shared PostgreSQL and Redis` : undefined;
const TOKEN = 'operator-token-0123456789';
const run = randomBytes(4).toString('hex');
const tag = String(Date.now() % 100_000);
const domains = Array.from({ length: 80 }, (_, i) => `${['open-basic', 'robots-blocks-all', 'generic-403-all-agents'][i % 3]}--${tag}${i}.world-fixtures.com`);

describe('a batch shared by two instances survives one of them being SIGKILLed', { skip }, () => {
  let world: World;
  let a: Child;
  let b: Child;
  let dir: string;
  let dbUrl: string;
  const dbName = `batch_mi_${run}`;
  const prefix = `test-batch-mi-${run}:`;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'batch-mi-'));
    world = await startWorld();
    const url = new URL(await createDatabase(DB!, dbName));
    dbUrl = url.toString();
    const env = {
      DATABASE_URL: dbUrl, REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix, MAIL_DIR: path.join(dir, 'mail'), OPERATOR_TOKEN: TOKEN, BASE_URL: 'http://batch-mi.test',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
      // A dead instance's jobs are taken up after its locks lapse: short here to keep the test short.
      JOB_LEASE_MS: '5000', FLEET_PER_ADDRESS_CONCURRENCY: '6', WORKER_CONCURRENCY: '4', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    };
    [a, b] = await Promise.all([spawnService(env, { timeoutMs: 120_000 }), spawnService(env, { timeoutMs: 120_000 })]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await world?.stop();
    const redis = new Redis(REDIS!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the batch finishes on the survivor; each domain once, none archived twice', async () => {
    const keyRes = await rawRequest(a.url, { method: 'POST', path: '/internal/api-keys', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Fleet', dailyScans: 500 }) });
    assert.equal(keyRes.status, 201, keyRes.text);
    const { key } = JSON.parse(keyRes.text) as { key: string };
    const created = await rawRequest(a.url, { method: 'POST', path: '/batches', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ domains }), timeoutMs: 60_000 });
    conforms(created);
    assert.equal(created.status, 202, created.text);
    const id = (JSON.parse(created.text) as { batchId: string }).batchId;
    const progress = async (on: Child) => JSON.parse((await rawRequest(on.url, { method: 'GET', path: `/batches/${id}`, headers: { Authorization: `Bearer ${key}` } })).text) as { status: string; done: number; failed: number };
    const stop = Date.now() + 300_000;
    while ((await progress(b)).done < 15) {
      if (Date.now() > stop) assert.fail('the batch never got going');
      await new Promise((r) => setTimeout(r, 200));
    }
    await a.stop('SIGKILL');
    let p = await progress(b);
    while (p.status !== 'done') {
      if (Date.now() > stop) assert.fail(`the batch did not finish on the survivor: ${JSON.stringify(p)}`);
      await new Promise((r) => setTimeout(r, 500));
      p = await progress(b);
    }
    const res = await rawRequest(b.url, { method: 'GET', path: `/batches/${id}/results`, headers: { Authorization: `Bearer ${key}` } });
    conforms(res);
    const rows = res.text.trim().split('\n').map((l) => JSON.parse(l) as { domain: string; state: string });
    assert.deepEqual(rows.map((r) => r.domain), domains);
    assert.ok(rows.every((r) => r.state === 'done'), res.text);
    const db = knex({ client: 'pg', connection: dbUrl });
    try {
      const archived = await db('scans').whereIn('domain', domains).groupBy('domain').select('domain').count({ n: '*' });
      assert.equal(archived.length, domains.length);
      assert.ok(archived.every((x) => Number(x.n) === 1), JSON.stringify(archived.filter((x) => Number(x.n) !== 1)));
    } finally {
      await db.destroy();
    }
  });
});
