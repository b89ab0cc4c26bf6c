// Acceptance, distributed: two instances on one PostgreSQL and one Redis share a batch; one is
// SIGKILLed midway; the batch finishes on the other, every domain appears exactly once in the
// results, and no domain was archived twice for the batch. Needs TEST_DATABASE_URL and
// TEST_REDIS_URL; skipped loudly without them.
import { createDatabase, dropDatabase } from '../helpers/pg-database.ts';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { Redis } from 'ioredis';
import { spawnServices, type Child } from '../../bench/lib/child.ts';
import { assertExactlyOnce, createBatch, partnerKey, waitForBatch, worldDomains, worldServiceEnv } from '../helpers/batch-run.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean).join(' and ');
const skip = missing ? `${missing} not set: the two-instance batch test needs a shared PostgreSQL and Redis` : undefined;
const run = randomBytes(4).toString('hex');
const domains = worldDomains(80, String(Date.now() % 100_000));

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
      ...worldServiceEnv(world), DATABASE_URL: dbUrl, REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix, MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://batch-mi.test',
      // A dead instance's jobs are taken up after its locks lapse: short here to keep the test short.
      JOB_LEASE_MS: '5000', FLEET_PER_ADDRESS_CONCURRENCY: '6', WORKER_CONCURRENCY: '4', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    };
    [a, b] = await spawnServices([env, env], { timeoutMs: 120_000 });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await world?.stop();
    const redis = new Redis(REDIS!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await dropDatabase(DB!, dbName);
    rmSync(dir, { recursive: true, force: true });
  });

  test('the batch finishes on the survivor; each domain once, none archived twice', async () => {
    const key = await partnerKey(a.url, 500);
    const id = await createBatch(a.url, key, domains);
    await waitForBatch(() => b.url, key, id, (p) => p.done >= 15, 'the batch to get going', 300_000);
    await a.stop('SIGKILL');
    await waitForBatch(() => b.url, key, id, (p) => p.status === 'done', 'the batch to finish on the survivor', 300_000);
    const db = knex({ client: 'pg', connection: dbUrl });
    try {
      await assertExactlyOnce(b.url, key, id, domains, db);
    } finally {
      await db.destroy();
    }
  });
});
