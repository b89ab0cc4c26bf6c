// Watching from a report (issue 38 item 1) over HTTP, against the contract: the report's
// "Watch this site" form (submitWatchForm) under createWatch's rules (double opt-in, the per-IP
// budget, exclusions), the manage page's buttons (testWatch and redeliverWebhook with
// from=page answer a 303 back to the page with a fixed notice), and redeliverWebhook's every
// status on the real delivery service. Tried as an abuser would: another domain through the
// form, markup in fields, private webhooks, a blind POST, repeated redeliveries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { addExcludedDomain } from '../../src/storage/queries/excludedDomains.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { insertDelivery } from '../../src/storage/queries/webhookDeliveries.ts';
import { conforms } from '../helpers/contract.ts';
import { downEngine } from '../jobs/engines.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@watch-form.com' };
const bearer = (k: string) => `Bearer ${k}`;
const resolve = fakeResolver({ 'hooks.internal-form.com': ['10.0.0.7'], 'hooks.watch-form.com': ['93.184.215.20'] });
const failing = downEngine;

async function scanned(t: TestApp, domain: string): Promise<string> {
  const res = await request(t.app).post('/scan').send({ domain, lead }).expect(200);
  return res.body.scanId as string;
}

describe('watch from a report, and the manage page\'s buttons', () => {
  let t: TestApp;
  let scanId: string;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '100/60', COALESCE_WINDOW_S: '0' }, {}, { scanner: fakeScanner(), scans: { resolve } });
    scanId = await scanned(t, 'shop.watch-form.com');
  });
  after(() => t.close());

  test('the report page offers the form, posting to this report (never a typed domain), with a CSP that lets it post and run its script', async () => {
    const res = await request(t.app).get(`/r/${scanId}`).set('Accept', 'text/html').expect(200);
    assert.ok(res.text.includes(`<form method="post" action="/r/${scanId}/watch"`));
    assert.doesNotMatch(res.text, /name="domain"/);
    assert.match(res.headers['content-security-policy']!, /form-action 'self'/);
    assert.match(res.headers['content-security-policy']!, /script-src 'self'(;| )/);
    // The cached page keeps the same policy.
    const again = await request(t.app).get(`/r/${scanId}`).set('Accept', 'text/html').expect(200);
    assert.equal(again.headers['content-security-policy'], res.headers['content-security-policy']);
    const js = await request(t.app).get('/assets/watch-form.js').expect(200).expect(conforms);
    assert.match(js.headers['content-type']!, /javascript/);
    assert.match(js.text, /data-watch-form/);
  });

  test('JS off: a plain POST gives a "check your mail" page; the mail goes to the address typed, for the report\'s domain; the watch waits', async () => {
    const res = await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'text/html')
      .send({ name: 'Grace <b>Hopper</b>', email: 'grace@watch-form.com', every: 'day', threshold: '7', domain: 'victim.example' }).expect(200).expect(conforms);
    assert.match(res.text, /Check your mail/);
    assert.doesNotMatch(res.text, /<b>Hopper/);
    const w = await t.ctx.db('watches').where({ lead_email: 'grace@watch-form.com' }).first();
    assert.equal(w.domain, 'shop.watch-form.com', 'the report\'s domain; a posted `domain` is ignored');
    assert.equal(w.status, 'pending-confirmation');
    assert.equal(w.every, 'day');
    assert.equal(Number(w.threshold), 7);
    const mails = (await listMail(t.ctx.db)).filter((m) => m.watch_id === w.id);
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.text_body, /\/watches\/[0-9a-f-]{36}\/confirm\?token=/);
  });

  test('JS on: the script\'s POST asks for JSON and gets the note to show inline', async () => {
    const res = await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'application/json')
      .send({ name: 'Ada', email: 'ada2@watch-form.com', webhookUrl: 'https://hooks.watch-form.com/in' }).expect(200).expect(conforms);
    assert.equal(res.body.status, 'pending-confirmation');
    assert.match(res.body.note, /confirm/i);
  });

  test('refusals: 400 with what to fix (a page, or the Error shape), never the resolved address; 404 for no report; 413; 415', async () => {
    const bad = await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'text/html').send({ name: 'Ada', email: 'not-an-email' }).expect(400).expect(conforms);
    assert.match(bad.text, /Please check the form/);
    assert.match(bad.text, /href="\/r\/[0-9a-f-]{36}#watch"/);
    const hook = await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'application/json').send({ ...lead, webhookUrl: 'https://hooks.internal-form.com/x' }).expect(400).expect(conforms);
    assert.match(hook.body.error, /non-public address/);
    assert.doesNotMatch(JSON.stringify(hook.body), /10\.0\.0\.7/);
    await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'application/json').send({ ...lead, every: 'hourly' }).expect(400).expect(conforms);
    await request(t.app).post(`/r/${scanId}/watch`).type('form').set('Accept', 'application/json').send({ ...lead, threshold: '0' }).expect(400).expect(conforms);
    const none = await request(t.app).post('/r/00000000-0000-4000-8000-000000000000/watch').type('form').set('Accept', 'text/html').send(lead).expect(404).expect(conforms);
    assert.match(none.text, /No report to watch/);
    await request(t.app).post('/r/00000000-0000-4000-8000-000000000000/watch').type('form').set('Accept', 'application/json').send(lead).expect(404).expect(conforms);
    await request(t.app).post(`/r/${scanId}/watch`).type('form').send({ ...lead, pad: 'x'.repeat(9000) }).expect(413).expect(conforms);
    await request(t.app).post(`/r/${scanId}/watch`).set('Content-Type', 'text/plain').send('name=Ada').expect(415).expect(conforms);
  });

  test('an excluded domain: no form on its report, and a POST anyway is 403', async () => {
    const id = await scanned(t, 'later-excluded.watch-form.com');
    await addExcludedDomain(t.ctx.db, 'later-excluded.watch-form.com', 'owner asked', new Date().toISOString());
    t.services.reads.forgetReportPage(id);
    const page = await request(t.app).get(`/r/${id}`).set('Accept', 'text/html').expect(200);
    assert.doesNotMatch(page.text, /Watch this site/);
    const res = await request(t.app).post(`/r/${id}/watch`).type('form').set('Accept', 'text/html').send(lead).expect(403).expect(conforms);
    assert.match(res.text, /cannot be watched/);
    await request(t.app).post(`/r/${id}/watch`).type('form').set('Accept', 'application/json').send(lead).expect(403).expect(conforms);
  });

  test('the form spends the per-IP budget of POST /scan: 429 with Retry-After once it is spent', async () => {
    const small = await testApp({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '2/3600' }, {}, { scanner: fakeScanner(), scans: { resolve } });
    try {
      const id = await scanned(small, 'budget.watch-form.com');
      await request(small.app).post(`/r/${id}/watch`).type('form').set('Accept', 'application/json').send(lead).expect(200);
      const page = await request(small.app).post(`/r/${id}/watch`).type('form').set('Accept', 'text/html').send(lead).expect(429).expect(conforms);
      assert.match(page.headers['retry-after']!, /^\d+$/);
      const json = await request(small.app).post(`/r/${id}/watch`).type('form').set('Accept', 'application/json').send(lead).expect(429).expect(conforms);
      assert.ok(json.body.retryAfterSeconds > 0);
      assert.equal(await small.ctx.db('watches').count({ n: '*' }).first().then((r) => Number(r!.n)), 1);
    } finally {
      await small.close();
    }
  });

  test('manage page buttons: testWatch and redeliverWebhook with from=page answer 303 back to the page with a fixed notice, which the page shows', async () => {
    const { key } = await t.services.keys.create('Page Partner', 10);
    const made = await request(t.app).post('/watches').set('Authorization', bearer(key)).send({ domain: 'buttons.watch-form.com', lead, every: 'week', notify: { webhookUrl: 'https://hooks.watch-form.com/in' } }).expect(202);
    const manage = new URL(made.body.manageUrl);
    const first = await request(t.app).post(`/watches/${made.body.watchId}/test${manage.search}`).type('form').send({ from: 'page' }).expect(303).expect(conforms);
    assert.equal(first.headers.location, `/watches/${made.body.watchId}${manage.search}&done=test-queued#deliveries`);
    const second = await request(t.app).post(`/watches/${made.body.watchId}/test${manage.search}`).type('form').send({ from: 'page' }).expect(303);
    assert.match(second.headers.location!, /done=test-too-soon/);
    const page = await request(t.app).get(`/watches/${made.body.watchId}${manage.search}&done=test-too-soon`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(page.text, /had its test event this minute/);
    assert.match(page.text, /Send a test event/);
    await request(t.app).get(`/watches/${made.body.watchId}${manage.search}&done=%3Cscript%3E`).set('Accept', 'text/html').expect(400);
    await request(t.app).post(`/watches/${made.body.watchId}/test${manage.search}`).type('form').send({ from: 'elsewhere' }).expect(400).expect(conforms);
    const redeliver = await request(t.app).post(`/watches/${made.body.watchId}/deliveries/evt-none/redeliver${manage.search}`).type('form').send({ from: 'page' }).expect(404).expect(conforms);
    assert.match(redeliver.body.error, /no delivery with that event id/);
  });

  test('redeliverWebhook: 202 for a finished delivery, then 429 within the minute; 409 for one still pending and for a watch not active; 400, 401, 404, 413, 415', async () => {
    const { key } = await t.services.keys.create('Redeliver Partner', 10);
    const made = await request(t.app).post('/watches').set('Authorization', bearer(key)).send({ domain: 'again.watch-form.com', lead, every: 'week', notify: { webhookUrl: 'https://hooks.watch-form.com/in' } }).expect(202);
    const id = made.body.watchId as string;
    const search = new URL(made.body.manageUrl).search;
    const row = async (eventId: string, status: string) => {
      await insertDelivery(t.ctx.db, { id: crypto.randomUUID(), watch_id: id, event_id: eventId, type: 'readiness.changed', url: 'https://hooks.watch-form.com/in', secret_version: 1, body: '{}', created_at: new Date().toISOString() });
      await t.ctx.db('webhook_deliveries').where({ event_id: eventId }).update({ status, attempts: 3 });
    };
    await row('evt-done-1', 'failed');
    await row('evt-pending-1', 'pending');
    const ok = await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver${search}`).expect(202).expect(conforms);
    assert.deepEqual(ok.body, { eventId: 'evt-done-1', type: 'readiness.changed' });
    const listed = await request(t.app).get(`/watches/${id}`).set('Authorization', bearer(key)).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(listed.body.deliveries.find((d: { eventId: string }) => d.eventId === 'evt-done-1').redeliveries, 1);
    // Whether its one attempt has ended or not, a second ask within the minute sends nothing more.
    const again = await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver`).set('Authorization', bearer(key));
    assert.ok(again.status === 429 || again.status === 409, String(again.status));
    await t.ctx.db('webhook_deliveries').where({ event_id: 'evt-done-1' }).update({ status: 'failed' });
    const soon = await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver`).set('Authorization', bearer(key)).expect(429).expect(conforms);
    assert.match(soon.headers['retry-after']!, /^\d+$/);
    const pending = await request(t.app).post(`/watches/${id}/deliveries/evt-pending-1/redeliver${search}`).expect(409).expect(conforms);
    assert.match(pending.body.error, /still on its way/);
    await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver`).expect(401).expect(conforms);
    await request(t.app).post(`/watches/${id}/deliveries/evt%20bad/redeliver${search}`).expect(400).expect(conforms);
    await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver?token=wrong`).expect(404).expect(conforms);
    await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver${search}`).type('form').send({ from: 'page', pad: 'x'.repeat(2000) }).expect(413).expect(conforms);
    await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver${search}`).set('Content-Type', 'text/plain').send('from=page').expect(415).expect(conforms);
    await request(t.app).delete(`/watches/${id}`).set('Authorization', bearer(key)).expect(200);
    await request(t.app).post(`/watches/${id}/deliveries/evt-done-1/redeliver`).set('Authorization', bearer(key)).expect(409).expect(conforms);
  });

  test('redeliverWebhook 503: the engine cannot take it, and the delivery stays as it was (not left pending for a job that does not exist)', async () => {
    const d = await testApp({ LOG_LEVEL: 'silent' }, {}, { scanner: fakeScanner(), scans: { resolve }, jobs: failing });
    try {
      const made = await request(d.app).post('/watches').send({ domain: 'down.watch-form.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.watch-form.com/x' } }).expect(202);
      await d.ctx.db('watches').where({ id: made.body.watchId }).update({ status: 'active', confirmed_at: new Date().toISOString() });
      await insertDelivery(d.ctx.db, { id: crypto.randomUUID(), watch_id: made.body.watchId, event_id: 'evt-down', type: 'readiness.changed', url: 'https://hooks.watch-form.com/x', secret_version: 1, body: '{}', created_at: new Date().toISOString() });
      await d.ctx.db('webhook_deliveries').where({ event_id: 'evt-down' }).update({ status: 'delivered' });
      await request(d.app).post(`/watches/${made.body.watchId}/deliveries/evt-down/redeliver${new URL(made.body.manageUrl).search}`).expect(503).expect(conforms);
      const after = await d.ctx.db('webhook_deliveries').where({ event_id: 'evt-down' }).first();
      assert.equal(after.status, 'delivered');
      assert.equal(Number(after.redeliveries), 0);
    } finally {
      await d.close();
    }
  });
});
