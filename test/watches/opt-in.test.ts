// Nothing goes to anyone who has not opted in, and a stranger's watches cost them what a scan
// does (issue 35), over HTTP on the real app (embedded engine, SQLite) with the real webhook
// deliveries and a fake scan engine:
//   - testWatch on a watch pending confirmation: 409 in the Error shape, nothing stored or
//     queued; the delivery service itself stores nothing for a watch that is not active;
//   - testWatch on an active watch: one event a minute (429 with Retry-After after it);
//   - createWatch without a key spends POST /scan's per-IP budget (the same bucket: scans and
//     watches of one address exhaust each other), 429 with Retry-After when spent; a request
//     refused for its input spends nothing; a key pays with its own budget, never the IP's;
//   - createWatch passes the human-verification gate when it is on (403 without a good token);
//   - a webhook URL whose name resolves into a private range: 400 that never names the address.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@opt-in-site.com' };
const bearer = (k: string) => `Bearer ${k}`;
const PRIVATE = { 'hooks.ten.opt-in-site.com': ['10.0.0.7'], 'hooks.meta.opt-in-site.com': ['169.254.169.254'], 'hooks.ula.opt-in-site.com': ['fd12:3456::7'], 'hooks.mixed.opt-in-site.com': ['93.184.215.20', '192.168.40.2'], 'hooks.loop.opt-in-site.com': ['127.0.0.53'] };
const resolve = fakeResolver(PRIVATE);
const search = (manageUrl: string) => new URL(manageUrl).search;
const deliveriesOf = async (t: TestApp, watchId: string) => t.ctx.db('webhook_deliveries').where({ watch_id: watchId });

describe('no delivery before the watch is confirmed; one test event a minute', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: fakeScanner(), scans: { resolve } });
  });
  after(() => t.close());

  test('testWatch on a watch pending confirmation: 409 (Error shape), nothing stored or queued; send() itself refuses it', async () => {
    const made = await request(t.app).post('/watches').send({ domain: 'pending.opt-in-site.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.opt-in-site.com/in' } }).expect(202).expect(conforms);
    assert.equal(made.body.status, 'pending-confirmation');
    for (let i = 0; i < 5; i++) {
      const res = await request(t.app).post(`/watches/${made.body.watchId}/test${search(made.body.manageUrl)}`).expect(409).expect(conforms);
      assert.match(res.body.error, /not confirmed yet/);
      assert.match(res.body.hint, /confirmation link/);
    }
    assert.deepEqual(await deliveriesOf(t, made.body.watchId), []);
    // Every other path that queues a delivery goes through send(), which asks the watch first.
    const event = { id: `evt-direct-${made.body.watchId}`, type: 'readiness.changed' as const, watchId: made.body.watchId };
    assert.equal(await t.services.webhooks.send({ watchId: made.body.watchId, url: 'https://hooks.opt-in-site.com/in', secretVersion: 1, event }), 'not-active');
    assert.equal(await t.services.webhooks.send({ watchId: '00000000-0000-4000-8000-000000000000', url: 'https://hooks.opt-in-site.com/in', secretVersion: 1, event: { ...event, id: 'evt-unknown' } }), 'not-active');
    assert.deepEqual(await deliveriesOf(t, made.body.watchId), []);
    // Ended: the same.
    await request(t.app).delete(`/watches/${made.body.watchId}${search(made.body.manageUrl)}`).expect(200);
    await request(t.app).post(`/watches/${made.body.watchId}/test${search(made.body.manageUrl)}`).expect(409).expect(conforms);
    assert.equal(await t.services.webhooks.send({ watchId: made.body.watchId, url: 'https://hooks.opt-in-site.com/in', secretVersion: 1, event }), 'not-active');
    assert.deepEqual(await deliveriesOf(t, made.body.watchId), []);
  });

  test('testWatch on an active watch: one test event per minute; more in that minute are 429 with Retry-After, nothing more queued', async () => {
    const { key } = await t.services.keys.create('Tester', 10);
    const made = await request(t.app).post('/watches').set('Authorization', bearer(key))
      .send({ domain: 'active.opt-in-site.com', lead, every: 'day', notify: { email: false, webhookUrl: 'https://hooks.opt-in-site.com/in' } }).expect(202).expect(conforms);
    // The service's clock stands 5 s into a minute while the requests are made.
    const real = t.ctx.now;
    t.ctx.now = () => new Date('2026-04-01T10:00:05.000Z');
    try {
      const first = await request(t.app).post(`/watches/${made.body.watchId}/test`).set('Authorization', bearer(key)).expect(202).expect(conforms);
      for (let i = 0; i < 10; i++) {
        const again = await request(t.app).post(`/watches/${made.body.watchId}/test${search(made.body.manageUrl)}`).expect(429).expect(conforms);
        assert.equal(again.headers['retry-after'], '55');
        assert.equal(again.body.retryAfterSeconds, 55);
        assert.ok(again.body.error.includes(first.body.eventId));
      }
      const rows = await deliveriesOf(t, made.body.watchId);
      assert.deepEqual(rows.map((r: { event_id: string; type: string }) => [r.event_id, r.type]), [[first.body.eventId, 'readiness.test']]);
      t.ctx.now = () => new Date('2026-04-01T10:01:00.000Z');
      const next = await request(t.app).post(`/watches/${made.body.watchId}/test`).set('Authorization', bearer(key)).expect(202).expect(conforms);
      assert.notEqual(next.body.eventId, first.body.eventId);
    } finally {
      t.ctx.now = real;
    }
  });
});

describe('createWatch without a key spends the per-IP budget of POST /scan', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '3/600', RATE_LIMIT_PER_DOMAIN: '50/60', MAIL_PER_RECIPIENT_PER_DAY: '50' }, {}, { scanner: fakeScanner(), scans: { resolve } });
  });
  after(() => t.close());

  test('requests refused for their input spend nothing; a scan and two watches spend the 3 points; then createWatch and POST /scan are both 429; a key still creates', async () => {
    // An abuser probing for private webhook hosts, many times a minute: 400 each, no point spent.
    for (let i = 0; i < 10; i++) await request(t.app).post('/watches').send({ domain: 'budget.opt-in-site.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.ten.opt-in-site.com/x' } }).expect(400).expect(conforms);
    await request(t.app).post('/scan').send({ domain: 'budget.opt-in-site.com', lead }).expect(200).expect(conforms);
    await request(t.app).post('/watches').send({ domain: 'w1.opt-in-site.com', lead, every: 'day' }).expect(202).expect(conforms);
    await request(t.app).post('/watches').send({ domain: 'w2.opt-in-site.com', lead, every: 'week' }).expect(202).expect(conforms);
    // Many more a minute: each refused before anything is stored or mailed.
    for (let i = 0; i < 10; i++) {
      const res = await request(t.app).post('/watches').send({ domain: `more${i}.opt-in-site.com`, lead, every: 'day' }).expect(429).expect(conforms);
      assert.equal(res.headers['retry-after'], String(res.body.retryAfterSeconds));
      assert.ok(res.body.retryAfterSeconds > 0 && res.body.retryAfterSeconds <= 600);
      assert.match(res.body.error, /scans and new watches share one budget/);
    }
    assert.equal((await t.ctx.db('watches').where('domain', 'like', 'more%')).length, 0, 'nothing stored');
    assert.equal((await t.ctx.db('mail_outbox').whereNotNull('watch_id')).length, 2, 'two confirmation mails, no more');
    // The same bucket: POST /scan from this address is refused too.
    await request(t.app).post('/scan').send({ domain: 'other.opt-in-site.com', lead }).expect(429).expect(conforms);
    // A key pays with its own daily budget and never spends (or needs) the IP's.
    const { keyId, key } = await t.services.keys.create('Partner', 5);
    await request(t.app).post('/watches').set('Authorization', bearer(key)).send({ domain: 'keyed.opt-in-site.com', lead, every: 'day' }).expect(202).expect(conforms);
    assert.equal((await t.services.keys.peek(keyId)).remaining, 4);
  });
});

describe('createWatch with the human-verification gate on', () => {
  let server: http.Server;
  let t: TestApp;
  const asked: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response') ?? '';
        asked.push(token);
        res.setHeader('content-type', 'application/json').end(JSON.stringify({ success: token === 'human' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    t = await testApp({ LOG_LEVEL: 'silent', TURNSTILE_SECRET: 'secret', TURNSTILE_VERIFY_URL: url, RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: fakeScanner(), scans: { resolve } });
  });
  after(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('without a key: 403 without a token or with a bad one (nothing stored), 202 with a good one; a key needs none', async () => {
    const none = await request(t.app).post('/watches').send({ domain: 'gate.opt-in-site.com', lead, every: 'day' }).expect(403).expect(conforms);
    assert.match(none.body.error, /Human verification is required/);
    await request(t.app).post('/watches').send({ domain: 'gate.opt-in-site.com', lead, every: 'day', turnstileToken: 'robot' }).expect(403).expect(conforms);
    assert.equal((await t.ctx.db('watches').where({ domain: 'gate.opt-in-site.com' })).length, 0);
    await request(t.app).post('/watches').send({ domain: 'gate.opt-in-site.com', lead, every: 'day', turnstileToken: 'human' }).expect(202).expect(conforms);
    const { key } = await t.services.keys.create('Gate partner', 5);
    const before = asked.length;
    await request(t.app).post('/watches').set('Authorization', bearer(key)).send({ domain: 'gate-keyed.opt-in-site.com', lead, every: 'day' }).expect(202).expect(conforms);
    assert.equal(asked.length, before, 'the verifier was not asked for a key\'s request');
  });
});

describe('a webhook URL refused for a non-public address never names the address', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: fakeScanner(), scans: { resolve } });
  });
  after(() => t.close());

  for (const [host, addresses] of Object.entries(PRIVATE)) {
    test(`${host} (${addresses.join(', ')}): 400, saying "resolves to a non-public address", the address nowhere in the answer`, async () => {
      const res = await request(t.app).post('/watches').send({ domain: 'hooked.opt-in-site.com', lead, every: 'day', notify: { webhookUrl: `https://${host}/in` } }).expect(400).expect(conforms);
      assert.equal(res.body.error, `The webhook URL must be https on a public address: ${host} resolves to a non-public address.`);
      for (const a of addresses) assert.ok(!res.text.includes(a) && !JSON.stringify(res.headers).includes(a), `${a} appears nowhere`);
    });
  }
});
