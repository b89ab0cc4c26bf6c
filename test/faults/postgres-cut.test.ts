// Fault: every PostgreSQL connection the service holds is cut at once mid-batch (a failover, a
// load balancer or NAT table dropping its state): a TCP proxy of the test's own sits between
// the service (src/main.js, the distributed engine on a redis-server of the test's own) and
// 127.0.0.1:5432, and resets every connection open at once, at the moment an item's archive
// transaction sends its first write. Queries caught in the cut fail (that archive is rolled back); the service must not crash, must open new connections, and the jobs whose work
// failed must be retried: the batch finishes, every domain appears once in getBatchResults,
// and none is archived twice. Needs TEST_DATABASE_URL and /usr/bin/redis-server; skipped
// loudly without them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { assertExactlyOnce, collectLog, countLog, createBatch, partnerKey, waitForBatch, worldDomains, worldServiceEnv, type LogLine } from '../helpers/batch-run.ts';
import { createDatabase, dropDatabase } from '../helpers/pg-database.ts';
import { noRedisServer, startRedisServer, type OwnRedis } from '../helpers/redis-server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const skip = !DB ? 'TEST_DATABASE_URL not set: the PostgreSQL cut test needs a PostgreSQL server to cut' : noRedisServer;
if (skip) console.warn(`SKIPPING the PostgreSQL connection-cut fault test: ${skip}`);

const run = randomBytes(4).toString('hex');
const domains = worldDomains(60, String(Date.now() % 100_000));

describe('fault: every PostgreSQL connection cut once mid-batch', { skip }, () => {
  const dbName = `faults_pg_cut_${run}`;
  let dir: string;
  let world: World | undefined;
  let redis: OwnRedis | undefined;
  let proxy: TcpProxy | undefined;
  let service: Child | undefined;
  let db: Knex | undefined;
  let log: LogLine[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pg-cut-'));
    // Slow sites: scans take a few seconds, so the cut catches archive writes and item updates in flight.
    world = await startWorld({ latencyMs: 100 });
    redis = await startRedisServer();
    const direct = new URL(await createDatabase(DB!, dbName));
    db = knex({ client: 'pg', connection: direct.toString(), pool: { min: 0, max: 2 } });
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    service = await spawnService({
      ...worldServiceEnv(world), DATABASE_URL: viaProxy.toString(), REDIS_URL: redis.url, MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://pg-cut.test',
      // A repeated run must be kept from a second archive by the item's own write, not by the window of recent results.
      COALESCE_WINDOW_S: '0',
      JOB_LEASE_MS: '5000', WORKER_CONCURRENCY: '8', FLEET_PER_ADDRESS_CONCURRENCY: '8', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    }, { timeoutMs: 120_000, stdout: 'pipe' });
    log = collectLog(service);
  });

  after(async () => {
    await service?.stop();
    await proxy?.close();
    await db?.destroy();
    await redis?.stop();
    await world?.stop();
    await dropDatabase(DB!, dbName);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Cuts every connection when the service next sends `pattern`; fails if it sends none within 60 s. */
  async function cutOn(pattern: RegExp, what: string): Promise<number> {
    let late: NodeJS.Timeout | undefined;
    return Promise.race([
      proxy!.cutOn(pattern),
      new Promise<never>((_, reject) => { late = setTimeout(() => reject(new Error(`no ${what} went out within 60 s of arming the cut`)), 60_000); }),
    ]).finally(() => clearTimeout(late));
  }

  test('the batch finishes on new connections: each domain once in the results, none archived twice', { timeout: 240_000 }, async () => {
    const s = service!;
    let exited: string | undefined;
    s.process.once('exit', (code, signal) => { exited = `${code ?? signal}`; });
    const key = await partnerKey(s.url);
    const started = Date.now();
    const id = await createBatch(s.url, key, domains);
    const before = await waitForBatch(() => s.url, key, id, (p) => p.done >= 15, '15 items done before the cut', 120_000);
    const running = Number((await db!('batch_items').where({ batch_id: id, state: 'running' }).count({ n: '*' }))[0]!.n);
    const acceptedBefore = proxy!.accepted;
    // The cut lands the moment an item's archive transaction sends its first write (the scan's
    // row): that transaction dies with its connection, and every other connection goes with it.
    const cut = await cutOn(/insert into "scans"/, 'an archive write');
    const cutAt = Date.now();
    assert.ok(cut >= 2, `the service held connections to cut (${cut})`);

    const done = await waitForBatch(() => s.url, key, id, (p) => p.status === 'done', 'the batch to finish after the cut', 150_000);
    const finishedAt = Date.now();
    await assertExactlyOnce(s.url, key, id, domains, db!);
    assert.equal(exited, undefined, 'the instance did not exit');
    const said = countLog(log, { connectionErrors: /Connection terminated|ECONNRESET|connection.*(closed|ended)/i, archivesRetried: /archive write failed; the scan is not served/ });
    console.log(`pg-cut figures: ${domains.length} items; ${before.done} done and ${running} running when ${cut} connections were cut; ${proxy!.accepted - acceptedBefore} new connections after; batch done ${finishedAt - cutAt} ms after the cut, ${finishedAt - started} ms in all; ${done.done} done, ${done.failed} failed; the service logged ${JSON.stringify(said)}`);
  });

  // The batch's own finishing step is a write of its own after the last item's: cut there, the
  // item is done and its job's retry finds nothing to do, so nothing marks the batch done.
  // The batch reconciler (src/batches/reconciler.ts) is what repairs it, within 30 s.
  test('connections cut as the last item marks its batch done: the batch still ends done', { timeout: 180_000 }, async () => {
    const s = service!;
    const key = await partnerKey(s.url);
    // One item: its finishing step is the batch's, with no other item racing to do it.
    const one = worldDomains(1, `9${Date.now() % 100_000}`);
    const cut = cutOn(/update "batches" set "status" = \$1, "finished_at"/, 'batch-finishing write');
    cut.catch(() => undefined); // awaited below; not unhandled if the batch is never created
    const id = await createBatch(s.url, key, one);
    await cut;
    const cutAt = Date.now();
    const done = await waitForBatch(() => s.url, key, id, (p) => p.status === 'done', 'the batch to be marked done after the cut', 45_000);
    console.log(`pg-cut figures (last item): the batch was marked done ${Date.now() - cutAt} ms after its finishing write was cut (${JSON.stringify({ done: done.done, failed: done.failed })})`);
    await assertExactlyOnce(s.url, key, id, one, db!);
  });
});
