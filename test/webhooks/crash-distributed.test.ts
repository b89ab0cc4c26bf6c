// The distributed case of crash.test.ts: two instances of the real composition root on one
// PostgreSQL database (fresh per run) and one Redis (a prefix per run), BullMQ as the engine.
// Instance A is SIGKILLed while the world's receiver holds its delivery's request; instance B,
// already running, takes the job over once A's lease lapses and delivers under the same event
// id, signed with the secret of the master key both read from the shared database. A job
// redelivered once the row is delivered (its completion as if lost) sends nothing.
import { createDatabase } from '../helpers/pg-database.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';
import { pino } from 'pino';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { QUEUE } from '../../src/webhooks/deliveries.ts';
import { deriveWebhookSecret, MASTER_KEY_NAME } from '../../src/webhooks/secrets.ts';
import { ADDR, startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';
import { children, killed, lines, until } from './crash-helpers.ts';

const REDIS = process.env.TEST_REDIS_URL;
const PG = process.env.TEST_DATABASE_URL;
const skip = REDIS && PG ? false : 'TEST_REDIS_URL and TEST_DATABASE_URL are not both set';
if (skip) console.warn(`SKIPPING the distributed webhook crash test: ${skip}`);

describe('a webhook delivery survives a SIGKILL of its instance (BullMQ on Redis, PostgreSQL)', { skip }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-crash-d-'));
  const procs = children();
  const receiver = webhookReceiver();
  const name = `webhook_crash_${process.pid}_${randomUUID().slice(0, 8)}`;
  const prefix = `test-webhook-crash-${name}:`;
  let world: World;
  let db: Knex;
  let env: Record<string, string>;
  before(async () => {
    const url = new URL(await createDatabase(PG!, name));
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler } });
    env = {
      DATABASE_URL: url.toString(), REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix, BASE_URL: 'http://hooks.test', LOG_LEVEL: 'debug',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
      // A's lock lapses 3 s after it dies and B's stalled check takes the job back; the killed
      // attempt (held by the receiver) must not time out on its own before the kill.
      JOB_LEASE_MS: '3000', WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_BACKOFF_MS: '100',
    };
    db = knex({ client: 'pg', connection: env.DATABASE_URL, pool: { min: 0, max: 2 } });
  });
  after(async () => {
    await procs.killAll();
    receiver.close();
    await db?.destroy();
    await world?.stop();
    const redis = new Redis(REDIS!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    const admin = knex({ client: 'pg', connection: PG! });
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('A killed while the receiver holds the request: B delivers it under the same event id; a redelivered job then sends nothing', { timeout: 180_000 }, async () => {
    receiver.script('/crash-d', ['hang', { status: 200 }]);
    const watchId = randomUUID();
    const e = { id: `evt_${randomUUID()}`, type: 'readiness.changed', watchId, domain: 'open-basic.world-fixtures.com', changes: [] };
    const logA = path.join(dir, 'a.log');
    const a = procs.start({ ...env, SEND: JSON.stringify({ watchId, url: 'https://hooks.world-fixtures.com/crash-d', secretVersion: 1, event: e }) }, logA);
    await receiver.until('/crash-d', 1, 90_000);
    // B is up before A dies: the takeover is by a live instance, not a restart.
    const logB = path.join(dir, 'b.log');
    const b = procs.start(env, logB);
    await until('B ready', () => lines(logB).find((l) => l.msg === `ready ${b.pid}`));
    await killed(a);

    const got = await receiver.until('/crash-d', 2, 90_000);
    const row = await until('the row delivered', async () => {
      const r = await db('webhook_deliveries').where({ event_id: e.id }).first();
      return r?.status === 'delivered' ? r : undefined;
    });
    // The killed attempt left no count: only the one that got an answer is on the row.
    assert.deepEqual([row.status, Number(row.attempts), Number(row.last_status_code), row.last_error], ['delivered', 1, 200, null]);
    assert.deepEqual(got.map((r) => r.headers['agentreadiness-event-id']), [e.id, e.id]);
    assert.ok(got.every((r) => r.network === 'networkA'), 'both through networkA\'s proxy');
    assert.ok(world.proxyLogs.networkA.seen.includes(`CONNECT ${ADDR.sites}:443`));
    assert.equal(a.signalCode, 'SIGKILL', 'A was dead before the second request: B sent it');
    const master = String((await db('signing_keys').where({ name: MASTER_KEY_NAME }).first()).private_jwk);
    const secret = deriveWebhookSecret(master, watchId, 1);
    for (const r of got) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['agentreadiness-signature']))!;
      assert.equal(createHmac('sha256', secret).update(`${t}.`).update(r.body).digest('hex'), v1);
    }

    // At least once: the same job again, as if its completion had been lost, is run by B and sends nothing.
    const jobs = new DistributedJobEngine({ redisUrl: REDIS!, keyPrefix: prefix, log: pino({ level: 'silent' }) });
    try {
      await jobs.enqueue(QUEUE, { id: row.id }, { jobId: `webhook.${row.id}` });
    } finally {
      await jobs.close();
    }
    await until('the redelivered job to find the row final', () => lines(logB).find((l) => l.msg.includes('already final') && l.delivery === row.id));
    assert.equal(receiver.received('/crash-d').length, 2, 'nothing more reached the receiver');
    assert.equal(Number((await db('webhook_deliveries').where({ event_id: e.id }).first()).attempts), 1);
  });
});
