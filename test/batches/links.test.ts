// A batch's capability links (issue 38 item 2): links.summaryPage and links.resultsPage open with
// no header for whoever holds them, and only them: a wrong, missing, rotated or old token, and a
// revoked key, answer the same 404 (a page for browsers); every answer is noindex and
// no-referrer. Tried as an abuser would: guessing, reusing after rotation, other keys' batches.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, fakeScanner } from '../scan-api/fixtures.ts';

const bearer = (k: string) => `Bearer ${k}`;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

async function until(cond: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const stop = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('batch capability links', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let other: string;
  let batchId: string;
  let links: Record<string, string>;
  const domains = Array.from({ length: 130 }, (_, i) => `site-${String(i).padStart(3, '0')}.links-test.com`);
  before(async () => {
    const scanner = fakeScanner({ make: (d) => cannedReport(d, { headline: d.includes('<') ? 'open' : 'agent-hostile' }) });
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '50' }, { scanner });
    ({ key, keyId } = await t.services.keys.create('Links Partner', 500));
    other = (await t.services.keys.create('Other Partner', 40)).key;
    const res = await request(t.app).post('/batches').set('Authorization', bearer(key)).send({ domains, label: 'Q4 <b>portfolio</b>' }).expect(202).expect(conforms);
    batchId = res.body.batchId;
    links = res.body.links;
    await until(async () => (await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(key))).body.status === 'done', 'the batch done');
  });
  after(() => t.close());

  test('createBatch and getBatch give both capability links, under the batch, with a long token', async () => {
    assert.match(links.summaryPage!, new RegExp(`^http://agent-readiness\\.test/batches/${batchId}/shared/[A-Za-z0-9_-]{43}$`));
    assert.equal(links.resultsPage, `${links.summaryPage}/results`);
    const got = await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.equal(got.body.links.summaryPage, links.summaryPage);
  });

  test('the summary page opens in a plain browser: no header, noindex, no-referrer, the label escaped, links to the table and downloads', async () => {
    const res = await request(t.app).get(pathOf(links.summaryPage!)).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /^text\/html/);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.match(res.headers['x-robots-tag']!, /noindex/);
    assert.match(res.headers['cache-control']!, /no-store/);
    assert.match(res.text, /<meta name="robots" content="noindex/);
    assert.match(res.text, /Q4 &lt;b&gt;portfolio&lt;\/b&gt;/);
    assert.doesNotMatch(res.text, /<b>portfolio/);
    assert.match(res.text, /130 of 130 sites scanned/);
    assert.ok(res.text.includes(`href="${pathOf(links.resultsPage!)}?format=csv"`));
    const json = await request(t.app).get(pathOf(links.summaryPage!)).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(json.body.batchId, batchId);
    assert.equal(json.body.total, 130);
  });

  test('the results table pages 100 rows at a time; CSV and NDJSON downloads hold every row', async () => {
    const p1 = await request(t.app).get(pathOf(links.resultsPage!)).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.equal((p1.text.match(/<tr><td>site-/g) ?? []).length, 100);
    assert.match(p1.text, /Page 1 of 2/);
    assert.match(p1.text, /rel="next"/);
    assert.equal(p1.headers['referrer-policy'], 'no-referrer');
    const p2 = await request(t.app).get(`${pathOf(links.resultsPage!)}?page=2`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.equal((p2.text.match(/<tr><td>site-/g) ?? []).length, 30);
    assert.match(p2.text, /site-129\.links-test\.com/);
    assert.match(p2.text, /href="http:\/\/agent-readiness\.test\/r\/[0-9a-f-]{36}">report<\/a>/);
    const beyond = await request(t.app).get(`${pathOf(links.resultsPage!)}?page=3`).expect(400).expect(conforms);
    assert.match(beyond.body.error, /2 pages/);
    await request(t.app).get(`${pathOf(links.resultsPage!)}?page=0`).expect(400).expect(conforms);
    const csv = await request(t.app).get(`${pathOf(links.resultsPage!)}?format=csv`).expect(200).expect(conforms);
    assert.match(csv.headers['content-disposition']!, /attachment; filename="batch-[0-9a-f-]{36}\.csv"/);
    assert.equal(csv.text.trim().split('\n').length, 131);
    const nd = await request(t.app).get(`${pathOf(links.resultsPage!)}?format=ndjson`).expect(200).expect(conforms);
    assert.equal(nd.text.trim().split('\n').length, 130);
    assert.equal(JSON.parse(nd.text.split('\n')[0]!).domain, 'site-000.links-test.com');
  });

  test('a wrong token, a token of another batch, no token and a non-uuid id all answer the same 404, a page for browsers', async () => {
    const token = links.summaryPage!.split('/').at(-1)!;
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const otherBatch = await request(t.app).post('/batches').set('Authorization', bearer(other)).send({ domains: ['x.links-test.com'] }).expect(202);
    const otherToken = otherBatch.body.links.summaryPage.split('/').at(-1);
    for (const path of [`/batches/${batchId}/shared/${wrong}`, `/batches/${batchId}/shared/${otherToken}`, `/batches/${batchId}/shared/${wrong}/results`, `/batches/${batchId}/shared/${token}x/results?format=csv`]) {
      const res = await request(t.app).get(path).expect(404).expect(conforms);
      assert.equal(res.body.error, 'No batch at this link.', path);
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      const page = await request(t.app).get(path).set('Accept', 'text/html').expect(404);
      assert.match(page.text, /This link does not open a batch/);
    }
    // A batch id that is not an id is refused before any lookup.
    await request(t.app).get(`/batches/not-a-uuid/shared/${token}`).expect(400).expect(conforms);
    await request(t.app).get(`/batches/${batchId}/shared`).expect(404);
    await request(t.app).get(`/batches/${batchId}/shared/`).expect(404);
    // The key-free page never opens with the API's own summary address either.
    await request(t.app).get(`/batches/${batchId}/summary`).set('Accept', 'text/html').expect(401);
  });

  test('rotateBatchLinks: new links open, the old ones 404 at once; only the batch\'s key may rotate', async () => {
    await request(t.app).post(`/batches/${batchId}/links`).expect(401).expect(conforms);
    await request(t.app).post(`/batches/${batchId}/links`).set('Authorization', bearer(other)).expect(404).expect(conforms);
    await request(t.app).post('/batches/not-a-uuid/links').set('Authorization', bearer(key)).expect(400).expect(conforms);
    await request(t.app).post(`/batches/${batchId}/links`).set('Authorization', bearer(key)).send({ pad: 'x'.repeat(70_000) }).expect(413).expect(conforms);
    await request(t.app).post(`/batches/${batchId}/links`).set('Authorization', bearer(key)).set('Content-Type', 'application/json').set('Content-Encoding', 'br').send('{}').expect(415).expect(conforms);
    const res = await request(t.app).post(`/batches/${batchId}/links`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.notEqual(res.body.summaryPage, links.summaryPage);
    assert.equal(res.body.self, links.self);
    await request(t.app).get(pathOf(links.summaryPage!)).expect(404);
    await request(t.app).get(pathOf(links.resultsPage!)).expect(404);
    await request(t.app).get(pathOf(res.body.summaryPage)).expect(200);
    const got = await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(key)).expect(200);
    assert.equal(got.body.links.summaryPage, res.body.summaryPage);
    links = res.body;
  });

  test('a link dies with its key: revoked, every page answers 404', async () => {
    await request(t.app).get(pathOf(links.summaryPage!)).expect(200);
    assert.equal(await t.services.keys.revoke(keyId), true);
    await request(t.app).get(pathOf(links.summaryPage!)).expect(404);
    await request(t.app).get(`${pathOf(links.resultsPage!)}?format=csv`).expect(404);
  });
});
