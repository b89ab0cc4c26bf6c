// Acceptance, distributed: two instances on one PostgreSQL and one Redis run one watch with
// WATCH_INTERVAL_S=5 (job id per (watch, period), both instances processing the queue); one
// is SIGKILLed after a few periods and the other carries on. Each due period ran exactly once:
// one row per period, each done run its own archived scan, and no scan of the site archived
// beyond the runs (a period run twice would archive twice). Needs TEST_DATABASE_URL and
// TEST_REDIS_URL; skipped loudly without them.
import { createDatabase } from '../helpers/pg-database.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { Redis } from 'ioredis';
import { spawnServices, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean).join(' and ');
const skip = missing ? `${missing} not set: the two-instance watch test needs a shared PostgreSQL and Redis` : undefined;
const TOKEN = 'operator-token-0123456789';
const run = randomBytes(4).toString('hex');
const domain = `open-basic--watch${Date.now() % 100_000}.world-fixtures.com`;

describe('a watch run by two instances on PostgreSQL and Redis: each due period once, across a SIGKILL', { skip }, () => {
  let world: World;
  let a: Child;
  let b: Child;
  let dir: string;
  let db: Knex;
  const dbName = `watch_mi_${run}`;
  const prefix = `test-watch-mi-${run}:`;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'watch-mi-'));
    world = await startWorld();
    const url = new URL(await createDatabase(DB!, dbName));
    const env = {
      DATABASE_URL: url.toString(), REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix, MAIL_DIR: path.join(dir, 'mail'), OPERATOR_TOKEN: TOKEN, BASE_URL: 'http://watch-mi.test',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
      WATCH_INTERVAL_S: '5', COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '60/60', JOB_LEASE_MS: '5000', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    };
    [a, b] = await spawnServices([env, env], { timeoutMs: 120_000 });
    db = knex({ client: 'pg', connection: url.toString() });
  });
  after(async () => {
    await db?.destroy();
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

  const finished = async (id: string) => (await db('watch_runs').where({ watch_id: id }).whereNot({ state: 'running' }).count({ n: '*' }))[0]!.n;
  async function waitFor(id: string, n: number, what: string): Promise<void> {
    const stop = Date.now() + 180_000;
    while (Number(await finished(id)) < n) {
      if (Date.now() > stop) assert.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  test('every due run happens once', { timeout: 400_000 }, async () => {
    const keyRes = await rawRequest(a.url, { method: 'POST', path: '/internal/api-keys', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Watcher', dailyScans: 500 }) });
    assert.equal(keyRes.status, 201, keyRes.text);
    const { key } = JSON.parse(keyRes.text) as { key: string };
    const created = await rawRequest(a.url, { method: 'POST', path: '/watches', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead: { name: 'Ada', email: 'ada@watch-mi.com' }, every: 'day' }) });
    conforms(created);
    assert.equal(created.status, 202, created.text);
    const id = (JSON.parse(created.text) as { watchId: string }).watchId;
    await waitFor(id, 3, 'three periods on two instances');
    await a.stop('SIGKILL');
    const before = Number(await finished(id));
    await waitFor(id, before + 3, 'three more periods on the survivor');

    const runs: Array<{ period: number; state: string; scan_id: string | null }> = await db('watch_runs').where({ watch_id: id }).orderBy('period');
    const done = runs.filter((r) => r.state === 'done');
    assert.ok(done.length >= 5, JSON.stringify(runs));
    assert.equal(new Set(done.map((r) => r.scan_id)).size, done.length, 'each done run is its own scan');
    // Runs still going may have archived their scan a moment before being marked: count only what is settled.
    const settledScans = await db('scans').where({ domain }).whereIn('id', done.map((r) => r.scan_id!)).count({ n: '*' });
    assert.equal(Number(settledScans[0]!.n), done.length);
    const allScans = Number((await db('scans').where({ domain }).count({ n: '*' }))[0]!.n);
    const open = runs.filter((r) => r.state === 'running').length;
    assert.ok(allScans <= done.length + open, `no period archived twice: ${allScans} scans for ${done.length} done and ${open} running runs`);
    assert.ok(runs.every((r) => r.state !== 'failed' && r.state !== 'skipped'), JSON.stringify(runs));
  });
});
