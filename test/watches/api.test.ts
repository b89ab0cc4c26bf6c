// The watch operations over HTTP against the contract (every status code), on the real app
// with the embedded job engine, a fake scan engine and a recording stand-in for webhook
// delivery. The runs against the test world are in runs.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { conforms } from '../helpers/contract.ts';
import { downEngine } from '../jobs/engines.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { recordingDeliveries, until, type RecordingDeliveries } from './fakes.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@watch-site.com' };
const bearer = (k: string) => `Bearer ${k}`;
const resolve = fakeResolver({ 'hooks.internal-site.com': ['10.0.0.7'], 'hooks.watch-site.com': ['93.184.215.20'] });
const failing = downEngine;

function linkOf(text: string, kind: 'confirm' | 'unsubscribe'): URL {
  const m = new RegExp(`https?://\\S+/watches/[0-9a-f-]{36}/${kind}\\?token=[A-Za-z0-9_-]{43}`).exec(text);
  assert.ok(m, `no ${kind} link in ${text}`);
  return new URL(m[0]);
}

describe('watches over HTTP', () => {
  let t: TestApp;
  let deliveries: RecordingDeliveries;
  let key: string;
  before(async () => {
    deliveries = recordingDeliveries();
    // The per-IP budget an unkeyed createWatch spends is tested in opt-in.test.ts; here it is roomy.
    t = await testApp({ LOG_LEVEL: 'silent', EXCLUDED_DOMAINS: 'excluded-site.com', MAIL_PER_RECIPIENT_PER_DAY: '3', RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: fakeScanner(), scans: { resolve }, deliveries });
    key = (await t.services.keys.create('Watch Partner', 10)).key;
  });
  after(() => t.close());

  let pending: { watchId: string; manageUrl: string };
  let mailText = '';

  test('createWatch without a key: 202 pending-confirmation; the mail has the link and RFC 8058 headers; nothing runs', async () => {
    const res = await request(t.app).post('/watches').send({ domain: 'https://www.Watch-Site.com/pricing', lead, every: 'week' }).expect(202).expect(conforms);
    pending = res.body;
    assert.equal(res.body.status, 'pending-confirmation');
    assert.equal(res.body.webhookSecret, undefined);
    assert.equal(res.headers.location, `http://agent-readiness.test/watches/${pending.watchId}`);
    const mails = (await listMail(t.ctx.db)).filter((m) => m.watch_id === pending.watchId);
    assert.equal(mails.length, 1);
    mailText = mails[0]!.text_body;
    assert.equal(mails[0]!.to_addr, lead.email);
    const headers = JSON.parse(mails[0]!.headers!) as Record<string, string>;
    assert.equal(headers['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
    assert.equal(headers['List-Unsubscribe'], `<${linkOf(mailText, 'unsubscribe').href}>`);
    const got = await request(t.app).get(new URL(pending.manageUrl).pathname + new URL(pending.manageUrl).search).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(got.body.status, 'pending-confirmation');
    assert.equal(got.body.domain, 'watch-site.com');
    assert.deepEqual(got.body.runs, []);
    assert.equal(got.body.nextRunAt, null);
  });

  test('the confirmation link: GET shows a button and changes nothing; a wrong token is 404; POST confirms', async () => {
    const link = linkOf(mailText, 'confirm');
    const page = await request(t.app).get(link.pathname + link.search).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(page.text, /<form method="post" action="\/watches\/[0-9a-f-]{36}\/confirm\?token=/);
    assert.match(String(page.headers['content-security-policy']), /form-action 'self'/);
    assert.equal((await request(t.app).get(`/watches/${pending.watchId}${new URL(pending.manageUrl).search}`).set('Accept', 'application/json')).body.status, 'pending-confirmation');
    const manageToken = new URL(pending.manageUrl).searchParams.get('token');
    await request(t.app).get(`${link.pathname}?token=${manageToken}`).expect(404).expect(conforms); // the creator's token cannot confirm
    await request(t.app).post(`${link.pathname}?token=${manageToken}`).set('Accept', 'application/json').expect(404).expect(conforms);
    await request(t.app).get('/watches/not-a-uuid/confirm?token=x').expect(400).expect(conforms);
    await request(t.app).post('/watches/not-a-uuid/confirm?token=x').expect(400).expect(conforms);
    const done = await request(t.app).post(link.pathname + link.search).type('form').send({ confirm: 'yes' }).expect(200).expect(conforms);
    assert.match(done.text, /The watch is active/);
    const again = await request(t.app).post(link.pathname + link.search).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.deepEqual(again.body, { watchId: pending.watchId, status: 'active' });
    await until(async () => (await request(t.app).get(`/watches/${pending.watchId}${new URL(pending.manageUrl).search}`).set('Accept', 'application/json')).body.runs[0]?.state === 'done', 'the baseline run');
    const got = await request(t.app).get(`/watches/${pending.watchId}${new URL(pending.manageUrl).search}`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(got.body.runs[0].baseline, true);
    assert.deepEqual(got.body.runs[0].changes, []);
    assert.ok(got.body.nextRunAt);
    await request(t.app).post(link.pathname + link.search).set('Content-Type', 'text/plain').send('x').expect(415).expect(conforms);
    await request(t.app).post(link.pathname + link.search).type('form').send({ confirm: 'y'.repeat(2000) }).expect(413).expect(conforms);
  });

  test('getWatch: a page for browsers, 401 without credentials, 404 for a wrong token or another key, 400 for a bad id', async () => {
    const page = await request(t.app).get(`/watches/${pending.watchId}${new URL(pending.manageUrl).search}`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(page.text, /<h1>Watch of watch-site\.com<\/h1>/);
    assert.match(page.text, /action="\/watches\/[0-9a-f-]{36}\/unsubscribe\?token=/);
    await request(t.app).get(`/watches/${pending.watchId}`).expect(401).expect(conforms);
    await request(t.app).get(`/watches/${pending.watchId}?token=${'A'.repeat(43)}`).expect(404).expect(conforms);
    await request(t.app).get(`/watches/${pending.watchId}`).set('Authorization', bearer(key)).expect(404).expect(conforms);
    await request(t.app).get('/watches/nope').set('Authorization', bearer(key)).expect(400).expect(conforms);
    await request(t.app).get(`/watches/${pending.watchId}`).set('Authorization', 'Bearer ark_not-a-key').expect(401).expect(conforms);
  });

  let active: { watchId: string; manageUrl: string; webhookSecret: string };

  test('createWatch with a key: 202 active at once with the webhook secret shown once; one scan of the day spent', async () => {
    const res = await request(t.app).post('/watches').set('Authorization', bearer(key))
      .send({ domain: 'keyed.watch-site.com', lead, every: 'day', notify: { email: false, webhookUrl: 'https://hooks.watch-site.com/in' }, threshold: 10 }).expect(202).expect(conforms);
    active = res.body;
    assert.equal(res.body.status, 'active');
    assert.match(res.body.webhookSecret, /^whsec_/);
    assert.match(String(res.headers.ratelimit), /^"daily";r=9;t=\d+$/);
    const byKey = await request(t.app).get(`/watches/${active.watchId}`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.deepEqual(byKey.body.notify, { email: false, webhookUrl: 'https://hooks.watch-site.com/in' });
    assert.equal(byKey.body.threshold, 10);
    assert.equal((await listMail(t.ctx.db)).filter((m) => m.watch_id === active.watchId).length, 0, 'a key\'s watch needs no confirmation mail');
  });

  test('testWatch: 202 and a readiness.test event handed to delivery; 409 without a webhook; 401/404/400', async () => {
    const res = await request(t.app).post(`/watches/${active.watchId}/test`).set('Authorization', bearer(key)).expect(202).expect(conforms);
    const sent = deliveries.sent.find((s) => s.event.id === res.body.eventId);
    assert.ok(sent);
    assert.deepEqual([sent.url, sent.secretVersion, sent.event.type, sent.event.watchId, sent.event.domain], ['https://hooks.watch-site.com/in', 1, 'readiness.test', active.watchId, 'keyed.watch-site.com']);
    const got = await request(t.app).get(`/watches/${active.watchId}${new URL(active.manageUrl).search}`).expect(200).expect(conforms);
    assert.equal(got.body.deliveries[0].eventId, res.body.eventId);
    await request(t.app).post(`/watches/${pending.watchId}/test${new URL(pending.manageUrl).search}`).expect(409).expect(conforms);
    await request(t.app).post(`/watches/${active.watchId}/test`).expect(401).expect(conforms);
    await request(t.app).post(`/watches/${active.watchId}/test${new URL(pending.manageUrl).search}`).expect(404).expect(conforms);
    await request(t.app).post('/watches/x/test').set('Authorization', bearer(key)).expect(400).expect(conforms);
    await request(t.app).post(`/watches/${active.watchId}/test`).set('Authorization', bearer(key)).send({ pad: 'x'.repeat(2000) }).expect(413).expect(conforms);
    await request(t.app).post(`/watches/${active.watchId}/test`).set('Authorization', bearer(key)).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{}').expect(415).expect(conforms);
  });

  test('createWatch refusals: 400 (domain, lead, private or plain-http webhook, nowhere to notify), 401, 403, 413, 415', async () => {
    const bad = (body: unknown) => request(t.app).post('/watches').send(body as object).expect(400).expect(conforms);
    await bad({ domain: 'localhost', lead, every: 'day' });
    await bad({ domain: 'watch-site.com', lead: { name: 'A' }, every: 'day' });
    await bad({ domain: 'watch-site.com', lead, every: 'month' });
    const priv = await bad({ domain: 'watch-site.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.internal-site.com/x' } });
    assert.equal(priv.body.error, 'The webhook URL must be https on a public address: hooks.internal-site.com resolves to a non-public address.');
    assert.ok(!JSON.stringify(priv.body).includes('10.0.0.7') && !priv.text.includes('10.0.0.7'), 'the address the name resolves to appears nowhere in the answer');
    await bad({ domain: 'watch-site.com', lead, every: 'day', notify: { webhookUrl: 'http://hooks.watch-site.com/x' } });
    await bad({ domain: 'watch-site.com', lead, every: 'day', notify: { webhookUrl: 'https://127.0.0.1/x' } });
    await bad({ domain: 'watch-site.com', lead, every: 'day', notify: { email: false } });
    await request(t.app).post('/watches').set('Authorization', 'Bearer ark_nope').send({ domain: 'watch-site.com', lead, every: 'day' }).expect(401).expect(conforms);
    await request(t.app).post('/watches').send({ domain: 'www.excluded-site.com', lead, every: 'day' }).expect(403).expect(conforms);
    await request(t.app).post('/watches').set('Content-Type', 'text/plain').send('watch-site.com').expect(415).expect(conforms);
    await request(t.app).post('/watches').send({ domain: 'watch-site.com', lead: { ...lead, name: 'x'.repeat(9000) }, every: 'day' }).expect(413).expect(conforms);
  });

  test('createWatch 429: the mailbox had its mails of the day (nothing stored), or the key has no scan left', async () => {
    const to = { name: 'Grace', email: 'grace+w@watch-site.com' };
    for (let i = 0; i < 3; i++) await request(t.app).post('/watches').send({ domain: `g${i}.watch-site.com`, lead: to, every: 'day' }).expect(202);
    const capped = await request(t.app).post('/watches').send({ domain: 'g9.watch-site.com', lead: { ...to, email: 'Grace@watch-site.com' }, every: 'day' }).expect(429).expect(conforms);
    assert.match(capped.body.error, /nothing was stored/);
    assert.equal(await t.ctx.db('watches').where({ domain: 'g9.watch-site.com' }).first(), undefined);
    const { key: small } = await t.services.keys.create('Tiny', 1);
    await request(t.app).post('/watches').set('Authorization', bearer(small)).send({ domain: 's1.watch-site.com', lead, every: 'day' }).expect(202);
    await request(t.app).post('/watches').set('Authorization', bearer(small)).send({ domain: 's2.watch-site.com', lead, every: 'day' }).expect(429).expect(conforms);
  });

  test('one-click unsubscribe (RFC 8058): the GET page changes nothing, the POST ends the watch; then confirming is 410', async () => {
    const link = linkOf(mailText, 'unsubscribe');
    const page = await request(t.app).get(link.pathname + link.search).expect(200).expect(conforms);
    assert.match(page.text, /name="List-Unsubscribe" value="One-Click"/);
    await request(t.app).get(`${link.pathname}?token=${'B'.repeat(43)}`).expect(404).expect(conforms);
    await request(t.app).get('/watches/x/unsubscribe?token=y').expect(400).expect(conforms);
    await request(t.app).post('/watches/x/unsubscribe?token=y').type('form').send('List-Unsubscribe=One-Click').expect(400).expect(conforms);
    await request(t.app).post(`${link.pathname}?token=${'B'.repeat(43)}`).type('form').send('List-Unsubscribe=One-Click').expect(404).expect(conforms);
    await request(t.app).post(link.pathname + link.search).set('Content-Type', 'application/xml').send('<x/>').expect(415).expect(conforms);
    await request(t.app).post(link.pathname + link.search).type('form').send(`List-Unsubscribe=${'x'.repeat(2000)}`).expect(413).expect(conforms);
    const res = await request(t.app).post(link.pathname + link.search).type('form').send('List-Unsubscribe=One-Click').expect(200).expect(conforms);
    assert.match(res.text, /This watch has ended/);
    const json = await request(t.app).post(link.pathname + link.search).set('Accept', 'application/json').type('form').send('List-Unsubscribe=One-Click').expect(200).expect(conforms);
    assert.deepEqual(json.body, { watchId: pending.watchId, status: 'ended' });
    await request(t.app).post(linkOf(mailText, 'confirm').pathname + linkOf(mailText, 'confirm').search).expect(410).expect(conforms);
    await request(t.app).post(linkOf(mailText, 'confirm').pathname + linkOf(mailText, 'confirm').search).set('Accept', 'application/json').expect(410).expect(conforms);
    await request(t.app).post(`/watches/${pending.watchId}/test${new URL(pending.manageUrl).search}`).expect(409).expect(conforms);
  });

  test('deleteWatch: 200 ended (unchanged when repeated); 401, 404, 400, 413, 415', async () => {
    const res = await request(t.app).delete(`/watches/${active.watchId}`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.equal(res.body.status, 'ended');
    assert.ok(res.body.endedAt);
    await request(t.app).delete(`/watches/${active.watchId}${new URL(active.manageUrl).search}`).expect(200).expect(conforms);
    await request(t.app).delete(`/watches/${active.watchId}`).expect(401).expect(conforms);
    await request(t.app).delete(`/watches/${active.watchId}${new URL(pending.manageUrl).search}`).expect(404).expect(conforms);
    await request(t.app).delete('/watches/zzz').set('Authorization', bearer(key)).expect(400).expect(conforms);
    // A DELETE carries no body; one sent anyway is still bounded and must be readable.
    await request(t.app).delete(`/watches/${active.watchId}`).set('Authorization', bearer(key)).send({ pad: 'x'.repeat(70_000) }).expect(413).expect(conforms);
    await request(t.app).delete(`/watches/${active.watchId}`).set('Authorization', bearer(key)).set('Content-Type', 'application/json').set('Content-Encoding', 'br').send('{}').expect(415).expect(conforms);
  });

  test('503: the job engine cannot take the run (nothing stored, no scan spent; a confirmation stays pending); no delivery for testWatch', async () => {
    const d = await testApp({ LOG_LEVEL: 'silent' }, {}, { scanner: fakeScanner(), scans: { resolve }, jobs: failing });
    try {
      const { keyId, key: k } = await d.services.keys.create('Unlucky', 5);
      await request(d.app).post('/watches').set('Authorization', bearer(k)).send({ domain: 'u.watch-site.com', lead, every: 'day' }).expect(503).expect(conforms);
      assert.equal((await d.services.keys.peek(keyId)).remaining, 5);
      assert.equal(await d.ctx.db('watches').first(), undefined);
      const made = await request(d.app).post('/watches').send({ domain: 'u.watch-site.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.watch-site.com/x' } }).expect(202);
      const confirm = linkOf((await listMail(d.ctx.db)).find((m) => m.watch_id === made.body.watchId)!.text_body, 'confirm');
      await request(d.app).post(confirm.pathname + confirm.search).expect(503).expect(conforms);
      assert.equal((await d.ctx.db('watches').where({ id: made.body.watchId }).first()).status, 'pending-confirmation');
      // A pending watch is refused before any engine is asked (opt-in.test.ts); an active one meets the engine that is down.
      await d.ctx.db('watches').where({ id: made.body.watchId }).update({ status: 'active', confirmed_at: new Date().toISOString() });
      await request(d.app).post(`/watches/${made.body.watchId}/test${new URL(made.body.manageUrl).search}`).expect(503).expect(conforms);
    } finally {
      await d.close();
    }
  });
});

