// Webhook deliveries against receivers in the test world, reached through networkA's proxy as
// a probe is: retried by the job engine under the same event id until a 2xx, signed afresh at
// every attempt (checked with node:crypto's HMAC and Python's hmac, not our verifier, and with
// the README's two snippets as printed), never following a redirect, refused by the guard when
// the host now resolves to a private address, a slow receiver timed out, a delivery failed for
// good after its attempts, and pending rows taken up again at start.
import { serviceBackend, type ServiceBackend } from '../helpers/service-backend.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { createEgress, type Egress } from '../../src/net/egress.ts';
import type { ResolveOverrides } from '../../src/net/resolve.ts';
import { DEFAULT_MAX_BODY } from '../../src/scanner/probe.ts';
import { insertDelivery } from '../../src/storage/queries/webhookDeliveries.ts';
import { watchIsActive } from '../../src/storage/queries/watches.ts';
import { localWatchSlots } from '../../src/webhooks/watch-slots.ts';
import { EXCERPT_CHARS, RESPONSE_BODY_CAP } from '../../src/webhooks/attempt.ts';
import { DELIVERY_ATTEMPTS, scheduleSpanMs, WebhookDeliveryService, type DeliveryView, type WebhookDeliveries, type WebhookEvent } from '../../src/webhooks/deliveries.ts';
import { webhookSecrets } from '../../src/webhooks/master-key.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { startWorld, ADDR, type World } from '../world/index.ts';
import { webhookReceiver, type ReceivedRequest } from '../world/receiver.ts';
import { nodeVerifies, pythonVerifies } from './readme-snippets.ts';
import { watchRow } from './watch-rows.ts';

const PY = spawnSync('sh', ['-c', 'command -v python3']).status === 0;
if (!PY) console.warn('SKIPPING the Python checks of delivered webhooks: python3 is not installed');
const PYTHON_SIGN = 'import hmac,hashlib,sys\nsecret,t,body=sys.argv[1],sys.argv[2],sys.stdin.buffer.read()\nprint(hmac.new(secret.encode(),t.encode()+b"."+body,hashlib.sha256).hexdigest())';

const HOST = 'hooks.world-fixtures.com';
const REBIND = 'rebind.world-fixtures.com';

/** The signature header of a delivery, checked by node:crypto directly (t, then one v1 over t + "." + raw body). */
function signedByNode(r: ReceivedRequest, secret: string): { t: number; ok: boolean } {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['agentreadiness-signature']));
  assert.ok(m, `signature header ${String(r.headers['agentreadiness-signature'])}`);
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.concat([Buffer.from(`${m[1]}.`, 'ascii'), r.body])).digest('hex');
  return { t: Number(m[1]), ok: mac === m[2] };
}

function signedByPython(r: ReceivedRequest, secret: string): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['agentreadiness-signature']))!;
  return execFileSync('python3', ['-c', PYTHON_SIGN, secret, t!], { input: r.body, encoding: 'utf8' }).trim() === v1;
}

function event(watchId: string, over: Partial<WebhookEvent> = {}): WebhookEvent {
  const id = `evt_${randomUUID()}`;
  return {
    id, type: 'readiness.changed', watchId, domain: 'bücher-open.world-fixtures.com',
    from: { scanId: randomUUID(), headline: 'open', score: 91 }, to: { scanId: randomUUID(), headline: 'blocked', score: 40 },
    changes: [{ kind: 'matrix', agent: 'GPTBot', network: 'networkA', from: 'pass', to: 'edge-denied', note: 'line\nbreak ✓' }],
    ...over,
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const stop = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > stop) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const deliveryOf = (hooks: WebhookDeliveries, watchId: string, eventId: string, ready: (d: DeliveryView) => boolean) =>
  until(`delivery ${eventId}`, async () => (await hooks.list(watchId, 50)).find((d) => d.eventId === eventId && ready(d)));

const REDIS = process.env.TEST_REDIS_URL;
const PG = process.env.TEST_DATABASE_URL;
const distributedSkip = REDIS && PG ? false : 'TEST_REDIS_URL and TEST_DATABASE_URL are not both set';
if (distributedSkip) console.warn(`SKIPPING webhook deliveries on BullMQ and PostgreSQL: ${distributedSkip}`);


for (const engine of ['embedded', 'distributed'] as const) describe(`webhook deliveries through the test world (${engine === 'embedded' ? 'embedded engine, SQLite' : 'BullMQ on Redis, PostgreSQL'})`, { skip: engine === 'distributed' ? distributedSkip : false }, () => {
  let world: World;
  const receiver = webhookReceiver();
  let overrides: { exact: Map<string, readonly string[]>; suffixes: ResolveOverrides['suffixes'] };
  let egress: Egress;
  let app: TestApp;
  let store: ServiceBackend;

  before(async () => {
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler, rebind: receiver.handler } });
    // The world's answers, in a table this test can change between two deliveries (a name rebound).
    overrides = { exact: new Map(world.resolveOverrides.exact), suffixes: world.resolveOverrides.suffixes };
    egress = createEgress({ name: 'networkA', proxyUrl: world.proxies.networkA, allowDirect: false, resolve: overrides, ca: world.ca });
    store = await serviceBackend(engine, 'webhooks');
    app = await testApp({ WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '1500', ...store.env }, {}, { webhookEgress: egress, batches: false });
  });
  after(async () => {
    receiver.close();
    await app?.close();
    await egress?.close();
    await world?.stop();
    await store?.drop();
  });

  test('500, 500, then 200: delivered on the third try, the same event id and bytes each time, each signed afresh with the watch\'s secret, through networkA\'s proxy', async () => {
    const watchId = await watchRow(app.ctx.db);
    const secret = await app.services.webhookSecret(watchId, 1);
    receiver.script('/flaky', [{ status: 500, body: 'try later' }, { status: 500 }, { status: 200, body: 'ok' }]);
    const e = event(watchId);
    const connectsBefore = world.proxyLogs.networkA.seen.length;
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/flaky`, secretVersion: 1, event: e });
    const got = await receiver.until('/flaky', 3);
    const row = await deliveryOf(app.services.webhooks, watchId, e.id, (d) => d.status !== 'pending');
    assert.deepEqual({ ...row, createdAt: 'x', deliveredAt: typeof row.deliveredAt }, {
      eventId: e.id, type: 'readiness.changed', status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null, createdAt: 'x', deliveredAt: 'string', nextAttemptAt: null, redeliveries: 0,
    });
    const now = Math.floor(Date.now() / 1000);
    for (const r of got) {
      assert.equal(r.method, 'POST');
      assert.equal(r.network, 'networkA', 'reached the receiver through networkA\'s proxy');
      assert.equal(r.headers['agentreadiness-event-id'], e.id);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.deepEqual(r.body, Buffer.from(JSON.stringify(e), 'utf8'), 'the same bytes every time');
      assert.deepEqual(JSON.parse(r.body.toString('utf8')), e);
      const signed = signedByNode(r, secret);
      assert.ok(signed.ok, 'node:crypto HMAC over t.body with the watch\'s secret matches v1');
      assert.ok(Math.abs(now - signed.t) < 120, `t=${signed.t} is the attempt's time`);
      assert.equal(signedByNode(r, `${secret}x`).ok, false, 'another secret does not match');
      if (PY) assert.ok(signedByPython(r, secret), 'Python hmac agrees');
    }
    assert.ok(world.proxyLogs.networkA.seen.slice(connectsBefore).includes(`CONNECT ${ADDR.sites}:443`), 'the proxy was asked for the checked address');
    // A second send of a delivered event sends nothing and adds no row.
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/flaky`, secretVersion: 1, event: e });
    assert.equal((await app.services.webhooks.list(watchId, 50)).length, 1);
  });

  test('redeliver: a finished delivery goes out once more with the same event id and bytes, in one attempt; again within the minute is too soon; one still pending is refused; another watch\'s event is not found', async () => {
    const watchId = await watchRow(app.ctx.db);
    receiver.script('/again', [{ status: 200, body: 'ok' }, { status: 503, body: 'down' }, { status: 200 }]);
    const e = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/again`, secretVersion: 1, event: e });
    await receiver.until('/again', 1);
    await deliveryOf(app.services.webhooks, watchId, e.id, (d) => d.status === 'delivered');
    assert.deepEqual(await app.services.webhooks.redeliver(watchId, e.id), { outcome: 'queued', type: 'readiness.changed' });
    const got = await receiver.until('/again', 2);
    assert.equal(got[1]!.headers['agentreadiness-event-id'], e.id);
    assert.ok(got[1]!.body.equals(got[0]!.body), 'the same bytes');
    // The receiver answered 503 to the redelivery: one attempt only, then failed (never retried).
    const row = await deliveryOf(app.services.webhooks, watchId, e.id, (d) => d.status === 'failed');
    assert.equal(row.attempts, 2);
    assert.equal(row.redeliveries, 1);
    assert.equal(row.lastStatusCode, 503);
    assert.equal((await app.services.webhooks.redeliver(watchId, e.id)).outcome, 'too-soon');
    assert.equal((await app.services.webhooks.redeliver('00000000-0000-4000-8000-000000000000', e.id)).outcome, 'not-found');
    assert.equal((await app.services.webhooks.redeliver(watchId, 'evt_nope')).outcome, 'not-found');
    assert.equal(receiver.received('/again').length, 2, 'nothing more went out');
  });

  test('the README\'s Node and Python snippets, as printed, verify a real delivery and refuse a changed one', { skip: PY ? false : 'python3 is not installed' }, async () => {
    const watchId = await watchRow(app.ctx.db);
    receiver.script('/readme', [{ status: 204 }]);
    const e = event(watchId, { type: 'readiness.test' });
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/readme`, secretVersion: 2, event: e });
    const [r] = await receiver.until('/readme', 1);
    const delivered = { body: r!.body, header: String(r!.headers['agentreadiness-signature']), secret: await app.services.webhookSecret(watchId, 2) };
    assert.equal(nodeVerifies(delivered), true, 'Node snippet');
    assert.equal(pythonVerifies(delivered), true, 'Python snippet');
    const changed = { ...delivered, body: Buffer.from(delivered.body.toString('utf8').replace('readiness.test', 'readiness.changed')) };
    assert.equal(nodeVerifies(changed), false, 'Node snippet, changed body');
    assert.equal(pythonVerifies(changed), false, 'Python snippet, changed body');
    const otherVersion = { ...delivered, secret: await app.services.webhookSecret(watchId, 1) };
    assert.equal(nodeVerifies(otherVersion), false, 'Node snippet, another version\'s secret');
    assert.equal(pythonVerifies(otherVersion), false, 'Python snippet, another version\'s secret');
  });

  test('a receiver that redirects: never followed, the attempt failed', async () => {
    const watchId = await watchRow(app.ctx.db);
    receiver.script('/moved', [{ status: 302, headers: { location: `https://${HOST}/landing` } }]);
    receiver.script('/landing', [{ status: 200 }]);
    const e = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/moved`, secretVersion: 1, event: e });
    const row = await deliveryOf(app.services.webhooks, watchId, e.id, (d) => d.attempts >= 2);
    assert.equal(row.status, 'pending', 'still retrying, not delivered');
    assert.match(row.lastError ?? '', /redirected to https:\/\/hooks\.world-fixtures\.com\/landing; deliveries never follow redirects/);
    assert.ok(receiver.received('/moved').length >= 2);
    assert.deepEqual(receiver.received('/landing'), [], 'the redirect target never got a request');
    // A 3xx without a Location is no delivery either, and its status is kept.
    receiver.script('/nowhere', [{ status: 301 }]);
    const bare = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/nowhere`, secretVersion: 1, event: bare });
    const unmoved = await deliveryOf(app.services.webhooks, watchId, bare.id, (d) => d.attempts >= 1);
    assert.deepEqual([unmoved.status, unmoved.lastStatusCode, unmoved.lastError], ['pending', 301, 'the receiver answered 301 (a redirect, never followed)']);
  });

  test('a webhook host that now resolves to a private address: refused by the guard at delivery, never reached', async () => {
    const watchId = await watchRow(app.ctx.db);
    receiver.script('/rebound', [{ status: 200 }]);
    const first = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${REBIND}/rebound`, secretVersion: 1, event: first });
    await deliveryOf(app.services.webhooks, watchId, first.id, (d) => d.status === 'delivered');
    assert.equal(receiver.received('/rebound').length, 1, 'reachable while it resolved to a public address');
    overrides.exact.set(REBIND, [ADDR.internal]);
    const connectsBefore = world.proxyLogs.networkA.seen.length;
    const second = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${REBIND}/rebound`, secretVersion: 1, event: second });
    const row = await deliveryOf(app.services.webhooks, watchId, second.id, (d) => d.attempts >= 2);
    assert.equal(row.status, 'pending');
    assert.equal(row.lastStatusCode, null);
    // Refused, and saying so without the address the name now resolves to (getWatch shows this to the watch's owner).
    assert.equal(row.lastError, `refused before sending: ${REBIND}: resolves to a non-public address (GUARD_REFUSED)`);
    assert.ok(!JSON.stringify(await app.services.webhooks.list(watchId, 50)).includes(ADDR.internal), 'the private address appears nowhere in the deliveries');
    assert.equal(receiver.received('/rebound').length, 1, 'the receiver got nothing more');
    assert.ok(!world.proxyLogs.networkA.seen.slice(connectsBefore).some((c) => c.includes(ADDR.internal)), 'the proxy was never asked for the private address');
  });

  test('a receiver slower than the timeout: the attempt is a failure (TIMEOUT) and the delivery stays pending', async () => {
    const watchId = await watchRow(app.ctx.db);
    receiver.script('/slow', ['hang']);
    const e = event(watchId);
    await app.services.webhooks.send({ watchId, url: `https://${HOST}/slow`, secretVersion: 1, event: e });
    const row = await deliveryOf(app.services.webhooks, watchId, e.id, (d) => d.attempts >= 1);
    assert.deepEqual([row.status, row.lastStatusCode, row.lastError], ['pending', null, 'no complete answer within 1500 ms (TIMEOUT)']);
    assert.ok(receiver.received('/slow').length >= 1, 'the request reached the receiver, which never answered');
  });

  test('an event id that is not a safe header value, or a URL that is not https, is refused before anything is stored', async () => {
    const watchId = await watchRow(app.ctx.db);
    await assert.rejects(app.services.webhooks.send({ watchId, url: `https://${HOST}/x`, secretVersion: 1, event: event(watchId, { id: 'evt\r\nX-Injected: 1' }) }), TypeError);
    await assert.rejects(app.services.webhooks.send({ watchId, url: `http://${HOST}/x`, secretVersion: 1, event: event(watchId) }), /must be https/);
    await assert.rejects(app.services.webhooks.send({ watchId, url: 'not a url', secretVersion: 1, event: event(watchId) }), /must be https/);
    assert.deepEqual(await app.services.webhooks.list(watchId, 5), []);
  });
});

describe('webhook deliveries on a bare engine', () => {
  let world: World;
  const receiver = webhookReceiver();
  let egress: Egress;
  let t: TestDb;
  const logged: Array<{ msg: string; [k: string]: unknown }> = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line) as { msg: string }) });
  before(async () => {
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler } });
    egress = world.egress().networkA;
    t = await openTestDb('sqlite');
  });
  after(async () => {
    await t?.close();
    await world?.stop();
  });

  function service(jobs: EmbeddedJobEngine, attempts?: number, backoffMs = 10): WebhookDeliveryService {
    return new WebhookDeliveryService({
      db: t.db, log, now: () => new Date(), jobs, egress: async () => egress, secret: webhookSecrets(undefined, t.db, () => new Date()),
      backoffMs, timeoutMs: 3000, userAgent: 'agent-readiness-webhooks/test', ...(attempts ? { attempts } : {}),
      watchActive: (id) => watchIsActive(t.db, id), slots: localWatchSlots(),
    });
  }

  test('a receiver that never answers 2xx: the delivery is failed after its attempts, each with the same event id', async () => {
    const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
    try {
      const hooks = service(jobs, 3);
      hooks.start();
      receiver.script('/down', [{ status: 503, body: 'maintenance' }]);
      const watchId = await watchRow(t.db);
      const e = event(watchId);
      await hooks.send({ watchId, url: `https://${HOST}/down`, secretVersion: 1, event: e });
      const row = await deliveryOf(hooks, watchId, e.id, (d) => d.status !== 'pending');
      assert.deepEqual([row.status, row.attempts, row.lastStatusCode, row.lastError, row.deliveredAt], ['failed', 3, 503, 'the receiver answered 503: maintenance', null]);
      assert.deepEqual(receiver.received('/down').map((r) => r.headers['agentreadiness-event-id']), [e.id, e.id, e.id]);
    } finally {
      await jobs.close();
    }
  });

  test('a failed delivery keeps its status code and at most a short, control-stripped excerpt of the receiver\'s answer', async () => {
    const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
    try {
      const hooks = service(jobs, 1);
      hooks.start();
      // Escape sequences, a bidi override, C0/C1 controls and line breaks, then far more than anyone should read back.
      const answer = `\u001b[31mERROR\u001b[0m \u202eevil\u202c\u0007 line1\nline2\r\n\u0085\u0090${'x'.repeat(5000)}TAIL-MARKER`;
      receiver.script('/oracle', [{ status: 500, body: answer }]);
      const watchId = await watchRow(t.db);
      const e = event(watchId);
      await hooks.send({ watchId, url: `https://${HOST}/oracle`, secretVersion: 1, event: e });
      const row = await deliveryOf(hooks, watchId, e.id, (d) => d.status === 'failed');
      assert.equal(row.lastStatusCode, 500);
      const prefix = 'the receiver answered 500: ';
      assert.ok(row.lastError?.startsWith(`${prefix}ERROR evil line1 line2 xxx`), String(row.lastError));
      const excerpt = row.lastError!.slice(prefix.length);
      assert.equal([...excerpt].length, EXCERPT_CHARS + 1, 'the excerpt is cut, and says so with an ellipsis');
      assert.ok(excerpt.endsWith('…'));
      assert.doesNotMatch(row.lastError!, /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, 'no control or bidi character');
      assert.ok(!row.lastError!.includes('TAIL-MARKER'));
    } finally {
      await jobs.close();
    }
  });

  test('a row written before (a long raw answer with controls, a private address) is shown cleaned', async () => {
    const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
    try {
      const hooks = service(jobs);
      const watchId = await watchRow(t.db);
      const e = event(watchId);
      await insertDelivery(t.db, { id: randomUUID(), watch_id: watchId, event_id: e.id, type: e.type, url: `https://${HOST}/old`, secret_version: 1, body: JSON.stringify(e), created_at: new Date().toISOString() });
      await t.db('webhook_deliveries').where({ event_id: e.id }).update({ last_error: 'refused before sending: old.world-fixtures.com: resolves to a non-public address (10.9.8.7) \u001b[2J\u202e (GUARD_REFUSED)' });
      const [shown] = await hooks.list(watchId, 5);
      assert.equal(shown!.lastError, 'refused before sending: old.world-fixtures.com: resolves to a non-public address  (GUARD_REFUSED)');
    } finally {
      await jobs.close();
    }
  });

  test('at start, a pending delivery whose job was lost is enqueued again; one older than the whole schedule is failed', async () => {
    receiver.script('/resumed', [{ status: 200 }]);
    const watchId = await watchRow(t.db);
    const lost = event(watchId);
    const stale = event(watchId);
    const now = Date.now();
    await insertDelivery(t.db, { id: randomUUID(), watch_id: watchId, event_id: lost.id, type: lost.type, url: `https://${HOST}/resumed`, secret_version: 1, body: JSON.stringify(lost), created_at: new Date(now - 60_000).toISOString() });
    await insertDelivery(t.db, { id: randomUUID(), watch_id: watchId, event_id: stale.id, type: stale.type, url: `https://${HOST}/resumed`, secret_version: 1, body: JSON.stringify(stale), created_at: new Date(now - 30 * 24 * 3600_000).toISOString() });
    const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
    try {
      const hooks = service(jobs);
      hooks.start();
      const delivered = await deliveryOf(hooks, watchId, lost.id, (d) => d.status === 'delivered');
      assert.equal(delivered.attempts, 1);
      const failed = await deliveryOf(hooks, watchId, stale.id, (d) => d.status === 'failed');
      assert.equal(failed.attempts, 0);
      assert.deepEqual(receiver.received('/resumed').map((r) => r.headers['agentreadiness-event-id']), [lost.id]);
    } finally {
      await jobs.close();
    }
  });

  test('a deleted watch\'s deliveries are forgotten: its pending one is never attempted again', async () => {
    const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
    try {
      // The retry comes 3 s after the first attempt: the watch is forgotten well before it, never mid-attempt.
      const hooks = service(jobs, undefined, 3000);
      hooks.start();
      receiver.script('/gone', [{ status: 500 }]);
      const watchId = await watchRow(t.db);
      const e = event(watchId);
      await hooks.send({ watchId, url: `https://${HOST}/gone`, secretVersion: 1, event: e });
      await deliveryOf(hooks, watchId, e.id, (d) => d.attempts >= 1);
      await hooks.forgetWatch(watchId);
      const sent = receiver.received('/gone').length;
      assert.deepEqual(await hooks.list(watchId, 10), []);
      // Its queued retry runs, finds no row, and sends nothing.
      const id = String((logged.find((l) => l.msg === 'webhook delivery attempt failed' && l.eventId === e.id))!.delivery);
      await until('the retry to find no row', async () => logged.find((l) => l.delivery === id && l.status === 'missing'));
      assert.equal(receiver.received('/gone').length, sent);
    } finally {
      await jobs.close();
    }
  });
});

describe('the delivery schedule and bounds', () => {
  test(`${DELIVERY_ATTEMPTS} attempts from 5 s doubling span about a day (22 h 45 min from the first to the last), as the README says`, () => {
    assert.equal(scheduleSpanMs(5000), 81_915_000);
    assert.ok(scheduleSpanMs(5000) <= 24 * 3600_000 && scheduleSpanMs(5000, DELIVERY_ATTEMPTS + 1) > 24 * 3600_000, 'one more attempt would pass 24 h');
  });

  test('a receiver\'s answer is read up to the scanner\'s per-response cap', () => {
    assert.equal(RESPONSE_BODY_CAP, DEFAULT_MAX_BODY);
  });
});
