// Fault: Redis freezes for 10 s mid-batch (SIGSTOP, then SIGCONT), as a paused VM, a stuck disk
// under a fork or a long swap storm freeze it: its sockets stay open and nothing is answered,
// so no client sees an error, every command simply waits. The service (src/main.js, the
// distributed BullMQ engine on a redis-server of the test's own, PostgreSQL in a fresh
// database) must come out of it by itself: the batch finishes, every domain appears once in
// getBatchResults, and none is archived twice. The pause outlasts JOB_LEASE_MS (5 s), so
// every running job's lock lapses while Redis is frozen, and BullMQ's stalled-job check may
// hand it out again once Redis answers: the batch item's conditional write is what keeps that
// to one archived scan (the window of just-completed results, itself in Redis, is off). Needs TEST_DATABASE_URL and /usr/bin/redis-server; skipped loudly
// without them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { assertExactlyOnce, collectLog, countLog, createBatch, type LogLine, partnerKey, waitForBatch, worldDomains, worldServiceEnv } from '../helpers/batch-run.ts';
import { createDatabase, dropDatabase } from '../helpers/pg-database.ts';
import { noRedisServer, startRedisServer, type OwnRedis } from '../helpers/redis-server.ts';
import { until } from '../webhooks/crash-helpers.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const skip = !DB ? 'TEST_DATABASE_URL not set: the Redis pause test runs the service on PostgreSQL' : noRedisServer;
if (skip) console.warn(`SKIPPING the Redis pause fault test: ${skip}`);

const PAUSE_MS = 10_000;
const run = randomBytes(4).toString('hex');
const domains = worldDomains(60, String(Date.now() % 100_000));

describe('fault: Redis paused (SIGSTOP) for 10 s mid-batch, then resumed', { skip }, () => {
  const dbName = `faults_redis_pause_${run}`;
  let dir: string;
  let world: World | undefined;
  let redis: OwnRedis | undefined;
  let service: Child | undefined;
  let db: Knex | undefined;
  let dbUrl: string;
  let log: LogLine[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'redis-pause-'));
    // Slow sites: scans take a few seconds, so the pause catches several in flight at every stage.
    world = await startWorld({ latencyMs: 100 });
    redis = await startRedisServer();
    dbUrl = await createDatabase(DB!, dbName);
    db = knex({ client: 'pg', connection: dbUrl, pool: { min: 0, max: 2 } });
    service = await spawnService({
      ...worldServiceEnv(world), DATABASE_URL: dbUrl, REDIS_URL: redis.url, MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://redis-pause.test',
      // Shorter than the pause: every lock held when Redis froze has lapsed when it answers again.
      JOB_LEASE_MS: '5000',
      // No window of just-completed results: a run repeated after the pause must be kept from a
      // second archive by the batch item's own exactly-once write, not by a cache in Redis.
      COALESCE_WINDOW_S: '0', WORKER_CONCURRENCY: '8', FLEET_PER_ADDRESS_CONCURRENCY: '8', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    }, { timeoutMs: 120_000, stdout: 'pipe' });
    log = collectLog(service);
  });

  after(async () => {
    redis?.resume();
    await service?.stop();
    await db?.destroy();
    await redis?.stop();
    await world?.stop();
    await dropDatabase(DB!, dbName);
    rmSync(dir, { recursive: true, force: true });
  });

  test('the batch finishes after Redis answers again: each domain once in the results, none archived twice', { timeout: 240_000 }, async () => {
    const s = service!;
    let exited: string | undefined;
    s.process.once('exit', (code, signal) => { exited = `${code ?? signal}`; });
    const key = await partnerKey(s.url);
    const started = Date.now();
    const id = await createBatch(s.url, key, domains);
    const before = await waitForBatch(() => s.url, key, id, (p) => p.done >= 10, '10 items done before the pause', 120_000);
    // Paused just after an item has started (marked running), so every worker slot holds a run.
    // Those runs need Redis only at their start and end: they scan and archive during the
    // pause, but their completions and lock renewals wait, their locks lapse, and at SIGCONT
    // BullMQ refuses the completions ("Missing lock") and its stalled check runs the jobs again.
    const runningNow = async () => new Set((await db!('batch_items').where({ batch_id: id, state: 'running' }).select('seq')).map((r: { seq: number }) => r.seq));
    const seen = await runningNow();
    const startedNow = await until('an item to start', async () => {
      const now = await runningNow();
      return [...now].some((q) => !seen.has(q)) ? now : undefined;
    }, 60_000, 5);
    const running = startedNow.size;

    redis!.pause();
    const pausedAt = Date.now();
    // The one fixed wait of the fault suite: the pause itself is the fault.
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    redis!.resume();
    const resumedAt = Date.now();
    const duringPause = Number((await db!('batch_items').where({ batch_id: id }).whereIn('state', ['done', 'failed']).count({ n: '*' }))[0]!.n);

    const done = await waitForBatch(() => s.url, key, id, (p) => p.status === 'done', 'the batch to finish after the pause', 150_000);
    const finishedAt = Date.now();
    await assertExactlyOnce(s.url, key, id, domains, db!);
    assert.equal(exited, undefined, 'the instance did not exit');
    const said = countLog(log, { locksLost: /could not renew lock/, completionsRefused: /Missing lock for job .*moveToFinished/, alreadyFinished: /already finished/ });
    console.log(`redis-pause figures: ${domains.length} items; ${before.done} done and ${running} running when Redis was paused for ${resumedAt - pausedAt} ms; ${duringPause} finished by the end of the pause; batch done ${finishedAt - resumedAt} ms after SIGCONT, ${finishedAt - started} ms in all; ${done.done} done, ${done.failed} failed; the service logged ${JSON.stringify(said)}`);
  });
});
