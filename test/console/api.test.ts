// The partner console's operations over HTTP against the contract (every status code): listBatches
// and listWatches page a key's own work by cursor, getKey says the budget left, a revoked key is
// refused on its next request, cursors and limits that are not ours are 400s (never a 5xx), and
// the page and its script come with a CSP that allows scripts and fetches of this origin only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, fakeScanner } from '../scan-api/fixtures.ts';
import { insertWatch } from '../../src/storage/queries/watches.ts';

const bearer = (k: string) => `Bearer ${k}`;

describe('the partner console over HTTP', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let other: string;
  const mine: string[] = [];
  before(async () => {
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '4' }, { scanner: fakeScanner({ make: (d) => cannedReport(d, { headline: 'open' }) }) });
    ({ key, keyId } = await t.services.keys.create('Console Partner', 50));
    other = (await t.services.keys.create('Other Partner', 50)).key;
    for (let i = 0; i < 5; i++) {
      const res = await request(t.app).post('/batches').set('Authorization', bearer(key)).send({ domains: [`s${i}.console-site.com`, `t${i}.console-site.com`], label: `batch ${i} <b>` }).expect(202);
      mine.unshift(res.body.batchId);
    }
    await request(t.app).post('/batches').set('Authorization', bearer(other)).send({ domains: ['x.console-site.com'] }).expect(202);
  });
  after(() => t.close());

  test('listBatches: the key\'s batches newest first, two a page, each page once; RateLimit headers; another key\'s never', async () => {
    const seen: string[] = [];
    const order: Array<[string, string]> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await request(t.app).get('/batches').query({ limit: 2, ...(cursor ? { cursor } : {}) }).set('Authorization', bearer(key)).expect(200).expect(conforms);
      assert.equal(res.headers['ratelimit-policy'], '"daily";q=50;w=86400');
      assert.match(String(res.headers.ratelimit), /^"daily";r=40;t=\d+$/, '10 scans spent by five batches of two');
      assert.ok(res.body.items.length <= 2);
      seen.push(...res.body.items.map((b: { batchId: string }) => b.batchId));
      order.push(...res.body.items.map((b: { createdAt: string; batchId: string }) => [b.createdAt, b.batchId] as [string, string]));
      for (const b of res.body.items) {
        assert.equal(b.total, 2);
        assert.match(b.links.summaryPage, /\/shared\//, 'the capability links are listed');
      }
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    // Batches created in the same millisecond are ordered by id: newest first, then id descending.
    assert.deepEqual([...seen].sort(), [...mine].sort(), 'each batch once');
    assert.deepEqual(order, [...order].sort(([a, x], [b, y]) => (a === b ? (x < y ? 1 : -1) : a < b ? 1 : -1)));
    assert.equal(pages, 3);
    const one = await request(t.app).get('/batches').set('Authorization', bearer(other)).expect(200).expect(conforms);
    assert.equal(one.body.items.length, 1);
    assert.equal(one.body.nextCursor, null);
  });

  test('listWatches: the key\'s watches with their last run, last change and failing deliveries; paged', async () => {
    const at = (d: number) => new Date(Date.UTC(2026, 5, d)).toISOString();
    const ids: string[] = [];
    for (let d = 1; d <= 3; d++) {
      const id = randomUUID();
      ids.unshift(id);
      await insertWatch(t.ctx.db, {
        id, domain: `w${d}.console-site.com`, lead_name: 'Ada', lead_email: 'ada@example.com', lead_phone: null, lead_role: null, every: 'week', notify_email: true, webhook_url: null,
        secret_version: 1, threshold: 10, status: 'active', key_id: keyId, created_at: at(d), confirmed_at: at(d), ended_at: null, ended_by: null,
      });
    }
    await t.ctx.db('watch_runs').insert({ watch_id: ids[0], period: 0, state: 'done', charged: true, scan_id: randomUUID(), headline: 'agent-hostile', score: 12, changes: '[{"kind":"score","text":"down"}]', started_at: at(4), finished_at: at(5) });
    await t.ctx.db('webhook_deliveries').insert({ id: randomUUID(), watch_id: ids[0], event_id: randomUUID(), type: 'readiness.changed', url: 'https://hooks.console-site.com/', secret_version: 1, body: '{}', status: 'failed', attempts: 8, created_at: at(5) });
    const first = await request(t.app).get('/watches').query({ limit: 2 }).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.deepEqual(first.body.items.map((w: { watchId: string }) => w.watchId), ids.slice(0, 2));
    const w = first.body.items[0];
    assert.deepEqual([w.lastRun.state, w.lastRun.headline, w.lastRun.score, w.lastChangeAt, w.failingDeliveries], ['done', 'agent-hostile', 12, at(5), 1]);
    assert.match(w.lastRun.reportUrl, /\/r\/[0-9a-f-]{36}$/);
    assert.match(w.manageUrl, new RegExp(`/watches/${ids[0]}\\?token=`));
    assert.equal(first.body.items[1].lastRun, null);
    const second = await request(t.app).get('/watches').query({ limit: 2, cursor: first.body.nextCursor }).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.deepEqual(second.body.items.map((x: { watchId: string }) => x.watchId), ids.slice(2));
    assert.equal(second.body.nextCursor, null);
    const none = await request(t.app).get('/watches').set('Authorization', bearer(other)).expect(200).expect(conforms);
    assert.deepEqual(none.body.items, []);
  });

  test('getKey: the key\'s name and its budget left today', async () => {
    const res = await request(t.app).get('/keys/me').set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.equal(res.body.name, 'Console Partner');
    assert.equal(res.body.keyId, keyId);
    assert.equal(res.body.budget.limit, 50);
    assert.equal(res.body.budget.remaining, 40);
    assert.ok(res.body.budget.resetSeconds >= 1 && res.body.budget.resetSeconds <= 86_400);
    // A query it does not take is refused (and a key in the query is never read as one).
    await request(t.app).get('/keys/me').query({ key }).expect(400).expect(conforms);
  });

  test('as an abuser: cursors and limits not ours are 400s; a forged cursor naming another key\'s batch still lists only this key\'s', async () => {
    for (const op of ['/batches', '/watches']) {
      for (const cursor of ['%%%', 'bm90IGpzb24', Buffer.from('[1,2]').toString('base64url'), Buffer.from('["a"]').toString('base64url'), 'x'.repeat(300)]) {
        await request(t.app).get(op).query({ cursor }).set('Authorization', bearer(key)).expect(400).expect(conforms);
      }
      for (const limit of ['0', '101', 'many', '-1']) await request(t.app).get(op).query({ limit }).set('Authorization', bearer(key)).expect(400).expect(conforms);
    }
    const theirs = (await request(t.app).get('/batches').set('Authorization', bearer(other)).expect(200)).body.items[0];
    const forged = Buffer.from(JSON.stringify(['9999-12-31T00:00:00.000Z', theirs.batchId])).toString('base64url');
    const res = await request(t.app).get('/batches').query({ cursor: forged }).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.deepEqual(res.body.items.map((b: { batchId: string }) => b.batchId).sort(), [...mine].sort());
    const injected = Buffer.from(JSON.stringify(["' or 1=1 --", "x' or '1'='1"])).toString('base64url');
    await request(t.app).get('/batches').query({ cursor: injected }).set('Authorization', bearer(key)).expect(200).expect(conforms);
  });

  test('401: no key, an unknown key, and a key revoked a moment ago, on each list and getKey', async () => {
    const victim = await t.services.keys.create('Soon Revoked', 5);
    await request(t.app).get('/keys/me').set('Authorization', bearer(victim.key)).expect(200).expect(conforms);
    assert.equal(await t.services.keys.revoke(victim.keyId), true);
    for (const op of ['/batches', '/watches', '/keys/me']) {
      await request(t.app).get(op).expect(401).expect(conforms);
      await request(t.app).get(op).set('Authorization', 'Bearer ark_unknown').expect(401).expect(conforms);
      const res = await request(t.app).get(op).set('Authorization', bearer(victim.key)).expect(401).expect(conforms);
      assert.match(res.body.error, /revoked/);
      assert.match(String(res.headers['www-authenticate']), /^Bearer /);
    }
  });

  test('getConsole and getConsoleScript: the page asks for the key, runs only this origin\'s script; neither takes a key in the URL', async () => {
    const page = await request(t.app).get('/console').query({ key: 'ark_should_be_ignored' }).expect(200).expect(conforms);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /unsafe/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.doesNotMatch(page.text, /ark_should_be_ignored/);
    assert.match(page.text, /<script src="\/assets\/console.js" defer><\/script>/);
    const js = await request(t.app).get('/assets/console.js').expect(200).expect(conforms);
    assert.match(String(js.headers["content-type"]), /^text\/javascript/);
    assert.match(js.text, /sessionStorage/);
    assert.doesNotMatch(js.text, /innerHTML|document\.cookie|localStorage/, 'text nodes only; the key never goes to a cookie or lasting storage');
  });
});
