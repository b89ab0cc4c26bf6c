// Fault: a watch's webhook receiver that accepts every request and never answers (the world's
// receiver in 'hang'), under the real service (src/main.js), on each engine: the default
// embedded one on SQLite, and BullMQ on a redis-server of the test's own with PostgreSQL (a
// fresh database; skipped loudly without TEST_DATABASE_URL). Watch A posts there: its one test
// event of the minute (sent once, never retried) and its change alert (retried). Meanwhile watch B (a receiver that answers), A's own runs and a batch must
// carry on: each of A's deliveries is cut off at WEBHOOK_TIMEOUT_MS, recorded as a failed
// attempt (no status code, the timeout named) and retried; B's alert is delivered; A keeps
// running every period; the batch finishes with each domain once and archived once; and the
// instance stops on SIGTERM with requests still held, exit code 0, before the 10 s after which
// it would be SIGKILLed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { createDatabase, dropDatabase } from '../helpers/pg-database.ts';
import { noRedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { assertExactlyOnce, createBatch, partnerKey, waitForBatch, worldDomains, worldServiceEnv } from '../helpers/batch-run.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { until } from '../webhooks/crash-helpers.ts';
import { startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';
import { BLOCK_GPTBOT } from '../world/scenarios/watches.ts';

const TIMEOUT_MS = 2000;
const tag = String(Date.now() % 100_000);
const watched = { a: `watched-shop--${tag}1.world-fixtures.com`, b: `watched-shop--${tag}2.world-fixtures.com` };
const domains = worldDomains(12, tag);
const DB = process.env.TEST_DATABASE_URL;

/** Where the service keeps its data and jobs, and how the test reads the database. */
interface Storage { env: Record<string, string>; open(): Knex; cleanup(): Promise<void> }
const engines: Array<{ name: string; skip: string | undefined; storage: (dir: string) => Promise<Storage> }> = [
  {
    name: 'embedded engine, SQLite',
    skip: undefined,
    storage: async (dir) => ({
      env: { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}` },
      open: () => knex({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'db.sqlite'), options: { readonly: true } }, useNullAsDefault: true }),
      cleanup: async () => undefined,
    }),
  },
  {
    name: 'BullMQ on a Redis of its own, PostgreSQL',
    skip: !DB ? 'TEST_DATABASE_URL not set: the distributed run needs PostgreSQL' : noRedisServer,
    storage: async () => {
      const name = `faults_webhook_hang_${randomBytes(4).toString('hex')}`;
      const redis = await startRedisServer();
      const url = await createDatabase(DB!, name).catch(async (err: unknown) => {
        await redis.stop();
        throw err;
      });
      return {
        env: { DATABASE_URL: url, REDIS_URL: redis.url },
        open: () => knex({ client: 'pg', connection: url, pool: { min: 0, max: 2 } }),
        cleanup: async () => {
          await redis.stop();
          await dropDatabase(DB!, name);
        },
      };
    },
  },
];
for (const e of engines) if (e.skip) console.warn(`SKIPPING the webhook-hang fault test on the ${e.name}: ${e.skip}`);

interface Delivery { eventId: string; type: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null }
interface Run { period: number; state: string; scanId: string | null; changes: unknown[] }
interface WatchBody { status: string; runs: Run[]; deliveries: Delivery[] }

for (const engine of engines) describe(`fault: a webhook receiver that never answers (${engine.name})`, { skip: engine.skip }, () => {
  let dir: string;
  let world: World | undefined;
  const receiver = webhookReceiver();
  let storage: Storage | undefined;
  let service: Child | undefined;
  let db: Knex | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-hang-'));
    receiver.script('/hang', ['hang']);
    world = await startWorld({ handlers: { hooks: receiver.handler } });
    storage = await engine.storage(dir);
    service = await spawnService({
      ...worldServiceEnv(world), ...storage.env, MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://webhook-hang.test',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_BACKOFF_MS: '200', WATCH_INTERVAL_S: '3',
      // Runs 3 s apart each scan afresh and within the per-site limit.
      COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '100/1',
      WORKER_CONCURRENCY: '4', FLEET_PER_ADDRESS_CONCURRENCY: '4', SCAN_DEADLINE_MS: '8000', LOG_LEVEL: 'warn',
    }, { timeoutMs: 120_000 });
    db = storage.open();
  });

  after(async () => {
    world?.reset('watched-shop');
    receiver.close();
    await service?.stop('SIGKILL');
    await db?.destroy();
    await storage?.cleanup();
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the hanging receiver\'s deliveries are cut off, recorded and retried; the other watch, the runs and a batch complete; SIGTERM still stops the instance', { timeout: 300_000 }, async () => {
    const s = service!;
    const key = await partnerKey(s.url);
    const auth = { Authorization: `Bearer ${key}` };
    const watch = async (domain: string, hook: string) => {
      const res = await rawRequest(s.url, { method: 'POST', path: '/watches', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead: { name: 'Ada', email: 'ada@webhook-hang.com' }, every: 'day', notify: { webhookUrl: `https://hooks.world-fixtures.com${hook}` } }) });
      conforms(res);
      assert.equal(res.status, 202, res.text);
      return (JSON.parse(res.text) as { watchId: string }).watchId;
    };
    const get = async (id: string): Promise<WatchBody> => {
      const res = await rawRequest(s.url, { method: 'GET', path: `/watches/${id}`, headers: { ...auth, Accept: 'application/json' } });
      conforms(res);
      assert.equal(res.status, 200, res.text);
      return JSON.parse(res.text) as WatchBody;
    };
    const doneRuns = async (id: string) => (await get(id)).runs.filter((r) => r.state === 'done');
    const a = await watch(watched.a, '/hang');
    const b = await watch(watched.b, '/ok');
    await until('both baselines', async () => (await doneRuns(a)).length >= 1 && (await doneRuns(b)).length >= 1, 120_000);

    // A's receiver now holds every request: its test event, then its change alert.
    const hangFrom = Date.now();
    const tested = await rawRequest(s.url, { method: 'POST', path: `/watches/${a}/test`, headers: auth });
    conforms(tested);
    assert.equal(tested.status, 202, tested.text);
    world!.update('watched-shop', { edge: BLOCK_GPTBOT });
    const batchId = await createBatch(s.url, key, domains);
    const runsAtHang = (await doneRuns(a)).length;

    // B's change alert goes out in its first attempt, however many of A's requests are held.
    const bDelivered = await until('B\'s change alert delivered', async () => {
      const d = (await get(b)).deliveries.find((x) => x.type === 'readiness.changed');
      return d?.status === 'delivered' ? d : undefined;
    }, 120_000);
    const bAfterMs = Date.now() - hangFrom;
    assert.deepEqual([bDelivered.attempts, bDelivered.lastStatusCode, bDelivered.lastError], [1, 200, null]);

    // Each of A's deliveries was tried and cut off, and recorded; the change alert is tried again,
    // the test event (sent once by design) is not.
    const aDeliveries = await until('A\'s test event cut off and its change alert attempted twice', async () => {
      const ds = (await get(a)).deliveries;
      const test = ds.find((d) => d.type === 'readiness.test');
      const changed = ds.find((d) => d.type === 'readiness.changed');
      return test && test.attempts === 1 && test.lastError && changed && changed.attempts >= 2 ? ds : undefined;
    }, 120_000);
    for (const d of aDeliveries) {
      assert.equal(d.lastStatusCode, null, `${d.eventId}: no status code from a receiver that never answered`);
      assert.match(d.lastError ?? '', new RegExp(`no complete answer within ${TIMEOUT_MS} ms \\(TIMEOUT\\)`), d.eventId);
      const times = receiver.received('/hang').filter((r) => r.headers['agentreadiness-event-id'] === d.eventId).length;
      if (d.type === 'readiness.changed') {
        assert.equal(d.status, 'pending', `${d.eventId}: still being retried, not settled`);
        assert.ok(times >= 2, `${d.eventId} reached the receiver at least twice`);
      } else assert.equal(times, 1, `${d.eventId}: a test event is sent once`);
    }
    const triedAfterMs = Date.now() - hangFrom;

    // A keeps running its periods, and the batch finishes beside it all.
    await until('two more of A\'s runs', async () => (await doneRuns(a)).length >= runsAtHang + 2, 120_000);
    await waitForBatch(() => s.url, key, batchId, (p) => p.status === 'done', 'the batch to finish', 120_000);
    await assertExactlyOnce(s.url, key, batchId, domains, db!);
    // Each of the watches' done runs is its own archived scan; nothing archived beyond the runs.
    for (const id of [a, b]) {
      const w = await get(id);
      const domain = id === a ? watched.a : watched.b;
      const done = w.runs.filter((r) => r.state === 'done');
      const scans: string[] = (await db!('scans').where({ domain }).select('id')).map((r: { id: string }) => r.id);
      assert.ok(done.every((r) => scans.includes(r.scanId!)), `${domain}: every done run archived`);
      assert.equal(new Set(done.map((r) => r.scanId)).size, done.length, `${domain}: each run its own scan`);
      assert.ok(scans.length <= done.length + w.runs.filter((r) => r.state === 'running').length, `${domain}: ${scans.length} scans for ${done.length} done runs`);
    }

    const aRuns = (await doneRuns(a)).length;

    // Nothing hangs on the way out either: SIGTERM with A's requests still held.
    const held = receiver.received('/hang').length;
    const stopAt = Date.now();
    const code = await s.stop('SIGTERM');
    const stopMs = Date.now() - stopAt;
    assert.equal(s.process.signalCode, null, `the instance exited by itself (not SIGKILLed after 10 s): ${stopMs} ms`);
    assert.equal(code, 0);
    console.log(`webhook-hang figures (${engine.name}): A's receiver held ${held} requests (a test event and a change alert, timeout ${TIMEOUT_MS} ms); B's alert delivered in 1 attempt ${bAfterMs} ms after A's receiver began to hang; A's ${aDeliveries.length} deliveries cut off and recorded after ${triedAfterMs} ms (attempts ${aDeliveries.map((d) => d.attempts).join(',')}); A ran ${aRuns} periods (${runsAtHang} before the hang); batch of ${domains.length} done; SIGTERM to exit ${stopMs} ms`);
  });
});
