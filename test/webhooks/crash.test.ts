// A delivery whose process is SIGKILLed mid-attempt, on the embedded engine and the real
// composition root (a child process configured as an operator would: networkA through the
// world's proxy, the world's CA by NODE_EXTRA_CA_CERTS, the master key generated and stored):
// after a restart the job runs again and the event arrives under the same event id, signed
// with the same stored secret; a job redelivered once the row is delivered sends nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { pino } from 'pino';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { embeddedFileFor } from '../../src/jobs/index.ts';
import { QUEUE } from '../../src/webhooks/deliveries.ts';
import { deriveWebhookSecret, MASTER_KEY_NAME } from '../../src/webhooks/secrets.ts';
import { ADDR, startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';
import { children, killed, lines, until } from './crash-helpers.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-crash-'));
const procs = children();
const child = procs.start;

describe('a webhook delivery survives a SIGKILL of its process (embedded engine)', () => {
  let world: World;
  const receiver = webhookReceiver();
  let db: Knex;
  const file = path.join(dir, 'db.sqlite');
  let env: Record<string, string>;
  before(async () => {
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler } });
    env = {
      DATABASE_URL: `sqlite:${file}`, BASE_URL: 'http://hooks.test', LOG_LEVEL: 'debug',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
      // The killed attempt must not time out on its own first; a dead claim lapses after 4 + 5 + 5 s.
      WEBHOOK_TIMEOUT_MS: '4000', WEBHOOK_BACKOFF_MS: '100',
    };
  });
  after(async () => {
    await procs.killAll();
    receiver.close();
    await db?.destroy();
    await world?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('killed while the receiver holds the request: delivered after the restart, same event id; a redelivered job then sends nothing', async () => {
    receiver.script('/crash', ['hang', { status: 200 }]);
    const watchId = randomUUID();
    const e = { id: `evt_${randomUUID()}`, type: 'readiness.changed', watchId, domain: 'open-basic.world-fixtures.com', changes: [] };
    const logA = path.join(dir, 'a.log');
    const a = child({ ...env, SEND: JSON.stringify({ watchId, url: 'https://hooks.world-fixtures.com/crash', secretVersion: 1, event: e }) }, logA);
    await receiver.until('/crash', 1, 90_000);
    await killed(a);

    const logB = path.join(dir, 'b.log');
    const b = child(env, logB);
    const got = await receiver.until('/crash', 2, 90_000);
    db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    const row = await until('the row delivered', async () => {
      const r = await db('webhook_deliveries').where({ event_id: e.id }).first();
      return r?.status === 'delivered' ? r : undefined;
    });
    // The killed attempt left no count: only the one that got an answer is on the row.
    assert.deepEqual([row.status, Number(row.attempts), Number(row.last_status_code), row.last_error], ['delivered', 1, 200, null]);
    assert.deepEqual(got.map((r) => r.headers['agentreadiness-event-id']), [e.id, e.id]);
    assert.ok(got.every((r) => r.network === 'networkA'), 'both through networkA\'s proxy');
    assert.ok(world.proxyLogs.networkA.seen.includes(`CONNECT ${ADDR.sites}:443`));
    // Both signed with the secret derived from the master key the first process stored, checked with node:crypto.
    const master = String((await db('signing_keys').where({ name: MASTER_KEY_NAME }).first()).private_jwk);
    const secret = deriveWebhookSecret(master, watchId, 1);
    for (const r of got) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['agentreadiness-signature']))!;
      assert.equal(createHmac('sha256', secret).update(`${t}.`).update(r.body).digest('hex'), v1);
    }

    // The engine delivers at least once: the same job again, as if its completion had been lost
    // in a crash, is put in the stopped process's queue file, and a new process runs it.
    await killed(b);
    const jobs = new EmbeddedJobEngine({ file: embeddedFileFor(env.DATABASE_URL!), log: pino({ level: 'silent' }) });
    await jobs.enqueue(QUEUE, { id: row.id }, { jobId: `webhook.${row.id}` });
    await jobs.close();
    const logC = path.join(dir, 'c.log');
    child(env, logC);
    await until('the redelivered job to find the row final', () => lines(logC).find((l) => l.msg.includes('already final') && l.delivery === row.id));
    assert.equal(receiver.received('/crash').length, 2, 'nothing more reached the receiver');
    assert.equal(Number((await db('webhook_deliveries').where({ event_id: e.id }).first()).attempts), 1);
  });
});
