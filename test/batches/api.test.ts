// The batch operations over HTTP, against the contract (every status code), on the real app
// with the embedded job engine and a fake scan engine (test/batches/world.test.ts scans the
// test world for real).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { downEngine } from '../jobs/engines.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, fakeScanner, type FakeScanner } from '../scan-api/fixtures.ts';

const TOKEN = 'operator-token-0123456789';
const bearer = (k: string) => `Bearer ${k}`;

async function until(cond: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const stop = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('batches over HTTP', () => {
  let t: TestApp;
  let scanner: FakeScanner;
  let key: string;
  let other: string;
  before(async () => {
    let i = 0;
    const headlines = ['open', 'agent-hostile', 'partially-blocked'] as const;
    scanner = fakeScanner({ make: (d) => cannedReport(d, { headline: headlines[i++ % 3]! }) });
    t = await scanApiApp({ OPERATOR_TOKEN: TOKEN, FLEET_PER_ADDRESS_CONCURRENCY: '4' }, { scanner });
    key = (await t.services.keys.create('Batch Partner', 40)).key;
    other = (await t.services.keys.create('Other Partner', 40)).key;
  });
  after(() => t.close());

  const waitDone = (id: string) => until(async () => {
    const r = await request(t.app).get(`/batches/${id}`).set('Authorization', bearer(key));
    return r.body.status === 'done';
  }, `batch ${id} done`);

  let batchId: string;

  test('createBatch: 202 with Location, RateLimit headers, duplicates folded and bad lines listed', async () => {
    const res = await request(t.app).post('/batches').set('Authorization', bearer(key))
      .send({ domains: ['a.batch-site.com', 'https://A.batch-site.com/x', 'b.batch-site.com', 'not a domain', 'localhost', 'c.batch-site.com'], label: 'first' })
      .expect(202).expect(conforms);
    batchId = res.body.batchId;
    assert.equal(res.headers.location, `http://agent-readiness.test/batches/${batchId}`);
    assert.equal(res.headers['ratelimit-policy'], '"daily";q=40;w=86400');
    assert.match(String(res.headers.ratelimit), /^"daily";r=37;t=\d+$/);
    assert.equal(res.body.status, 'queued');
    assert.equal(res.body.total, 3);
    assert.equal(res.body.duplicates, 1);
    assert.deepEqual(res.body.rejected.map((r: { line: number }) => r.line), [4, 5]);
    assert.match(res.body.rejected[1].hint, /npx agent-readiness scan localhost/);
  });

  test('getBatch: 200 with counts by state and headline; done once every item is scanned', async () => {
    await waitDone(batchId);
    const res = await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.equal(res.body.done, 3);
    assert.equal(res.body.pending, 0);
    assert.equal(Object.values(res.body.byHeadline as Record<string, number>).reduce((a, b) => a + b, 0), 3);
    assert.ok(res.body.startedAt && res.body.finishedAt);
    assert.equal(scanner.calls.length, 3, 'one scan per distinct domain');
  });

  test('getBatchResults: NDJSON and CSV carry the same rows, one per domain, each report served', async () => {
    const nd = await request(t.app).get(`/batches/${batchId}/results`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.match(String(nd.headers['content-type']), /^application\/x-ndjson/);
    const rows = nd.text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(rows.map((r) => r.domain), ['a.batch-site.com', 'b.batch-site.com', 'c.batch-site.com']);
    const csv = await request(t.app).get(`/batches/${batchId}/results?format=csv`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    const byAccept = await request(t.app).get(`/batches/${batchId}/results`).set('Accept', 'text/csv').set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.equal(csv.text, byAccept.text);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'domain,state,scanId,reportUrl,headline,score,confidence,error');
    assert.deepEqual(lines.slice(1), rows.map((r) => [r.domain, r.state, r.scanId, r.reportUrl, r.headline, r.score, r.confidence, r.error ?? ''].join(',')));
    for (const r of rows) {
      const report = await request(t.app).get(new URL(String(r.reportUrl)).pathname).set('Accept', 'application/json').expect(200);
      assert.equal(report.body.scanId, r.scanId);
      assert.equal(report.body.headline, r.headline);
    }
  });

  test('getBatchSummary: JSON whose figures recompute from the results and their reports; a page for browsers', async () => {
    const res = await request(t.app).get(`/batches/${batchId}/summary`).set('Authorization', bearer(key)).expect(200).expect(conforms);
    const rows = (await request(t.app).get(`/batches/${batchId}/results`).set('Authorization', bearer(key))).text.trim().split('\n').map((l) => JSON.parse(l));
    const headlines: Record<string, number> = {};
    for (const r of rows) headlines[r.headline] = (headlines[r.headline] ?? 0) + 1;
    assert.deepEqual(res.body.headlines, headlines);
    const scores = rows.map((r) => r.score as number).sort((a, b) => a - b);
    assert.equal(res.body.score.mean, Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100);
    const reports = await Promise.all(rows.map(async (r) => (await request(t.app).get(new URL(r.reportUrl).pathname).set('Accept', 'application/json')).body));
    for (const agent of res.body.agents as Array<{ ua: string; sites: number; robotsBlocks: number }>) {
      const entries = reports.map((rep) => rep.matrix.find((m: { ua: string }) => m.ua === agent.ua)).filter(Boolean);
      assert.equal(agent.sites, entries.length, agent.ua);
      assert.equal(agent.robotsBlocks, entries.filter((m: { robotsSays: string }) => m.robotsSays === 'blocked').length, agent.ua);
    }
    const page = await request(t.app).get(`/batches/${batchId}/summary`).set('Accept', 'text/html').set('Authorization', bearer(key)).expect(200).expect(conforms);
    assert.match(page.text, /<svg role="img" aria-labelledby/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
  });

  test('CSV (a domain column) and plain text are read too; profile and label by query', async () => {
    const csv = await request(t.app).post('/batches?label=csv&profile=docs').set('Authorization', bearer(key)).set('Content-Type', 'text/csv')
      .send('owner,domain\nAda,"d.batch-site.com"\nGrace,e.batch-site.com\n').expect(202).expect(conforms);
    assert.equal(csv.body.total, 2);
    const text = await request(t.app).post('/batches').set('Authorization', bearer(key)).set('Content-Type', 'text/plain')
      .send('# my sites\nf.batch-site.com\n\nhttp://g.batch-site.com/\n').expect(202).expect(conforms);
    assert.equal(text.body.total, 2);
    await waitDone(csv.body.batchId);
    const got = await request(t.app).get(`/batches/${csv.body.batchId}`).set('Authorization', bearer(key)).expect(200);
    assert.equal(got.body.label, 'csv');
    assert.equal(got.body.profile, 'docs');
  });

  test('401 without a key (WWW-Authenticate: Bearer), with a revoked one, and for the operator creating', async () => {
    const paths = [['post', '/batches'], ['get', `/batches/${batchId}`], ['get', `/batches/${batchId}/results`], ['get', `/batches/${batchId}/summary`], ['delete', `/batches/${batchId}`]] as const;
    for (const [method, path] of paths) {
      const res = await request(t.app)[method](path).send(method === 'post' ? { domains: ['x.batch-site.com'] } : undefined).expect(401).expect(conforms);
      assert.match(String(res.headers['www-authenticate']), /^Bearer /);
    }
    await request(t.app).post('/batches').set('Authorization', bearer(TOKEN)).send({ domains: ['x.batch-site.com'] }).expect(401).expect(conforms);
    const { keyId, key: revoked } = await t.services.keys.create('Revoked', 5);
    await t.services.keys.revoke(keyId);
    await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(revoked)).expect(401).expect(conforms);
  });

  test('another key gets 404 for the batch, as for no batch; the operator sees it', async () => {
    for (const path of [`/batches/${batchId}`, `/batches/${batchId}/results`, `/batches/${batchId}/summary`]) {
      const res = await request(t.app).get(path).set('Authorization', bearer(other)).expect(404).expect(conforms);
      assert.equal(res.body.error, 'No batch with this id.');
    }
    await request(t.app).delete(`/batches/${batchId}`).set('Authorization', bearer(other)).expect(404).expect(conforms);
    await request(t.app).get('/batches/9b2f7c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d').set('Authorization', bearer(key)).expect(404).expect(conforms);
    await request(t.app).get(`/batches/${batchId}`).set('Authorization', bearer(TOKEN)).expect(200).expect(conforms);
    await request(t.app).get(`/batches/${batchId}/results`).set('Authorization', bearer(TOKEN)).expect(200);
  });

  test('400s: a malformed id, no valid domain, an empty or too long list; 415 for another type; 413 past the body limit', async () => {
    for (const path of ['/batches/nope', '/batches/nope/results', '/batches/nope/summary']) await request(t.app).get(path).set('Authorization', bearer(key)).expect(400).expect(conforms);
    await request(t.app).delete('/batches/nope').set('Authorization', bearer(key)).expect(400).expect(conforms);
    const none = await request(t.app).post('/batches').set('Authorization', bearer(key)).send({ domains: ['not a domain', '10.0.0.1'] }).expect(400).expect(conforms);
    assert.match(none.body.error, /None of the 2 entries/);
    await request(t.app).post('/batches').set('Authorization', bearer(key)).send({ domains: [] }).expect(400).expect(conforms);
    await request(t.app).post('/batches').set('Authorization', bearer(key)).set('Content-Type', 'text/plain').send(Array.from({ length: 10_001 }, (_, i) => `s${i}.batch-site.com`).join('\n')).expect(400).expect(conforms);
    await request(t.app).post('/batches').set('Authorization', bearer(key)).set('Content-Type', 'application/xml').send('<domains/>').expect(415).expect(conforms);
    await request(t.app).post('/batches').set('Authorization', bearer(key)).set('Content-Type', 'text/plain').send('x'.repeat(1_048_577)).expect(413).expect(conforms);
  });

  test('429 for a batch larger than what is left today: it says how many remain and when they refill, and spends nothing', async () => {
    const { keyId, key: small } = await t.services.keys.create('Small', 3);
    const res = await request(t.app).post('/batches').set('Authorization', bearer(small))
      .send({ domains: ['h1.batch-site.com', 'h2.batch-site.com', 'h3.batch-site.com', 'h4.batch-site.com'] }).expect(429).expect(conforms);
    assert.match(res.body.error, /3 of its 3 daily scans left; 4 were asked for/);
    assert.equal(res.headers['retry-after'], String(res.body.retryAfterSeconds));
    assert.equal((await t.services.keys.peek(keyId)).remaining, 3);
  });

  test('cancelBatch: what has not started is cancelled and given back; a finished batch is unchanged; a body sent anyway gets 413 past the limit, 415 in an unknown encoding', async () => {
    const held = fakeScanner({ held: true });
    const h = await scanApiApp({ OPERATOR_TOKEN: TOKEN, FLEET_PER_ADDRESS_CONCURRENCY: '1', WORKER_CONCURRENCY: '1' }, { scanner: held });
    try {
      const { keyId, key: k } = await h.services.keys.create('Canceller', 10);
      const created = await request(h.app).post('/batches').set('Authorization', bearer(k)).send({ domains: ['c1.batch-site.com', 'c2.batch-site.com', 'c3.batch-site.com'] }).expect(202);
      await until(async () => held.calls.length === 1, 'the first item to start');
      const res = await request(h.app).delete(`/batches/${created.body.batchId}`).set('Authorization', bearer(k)).expect(200).expect(conforms);
      assert.equal(res.body.status, 'cancelled');
      assert.equal(res.body.cancelled, 2);
      assert.equal((await h.services.keys.peek(keyId)).remaining, 9, 'the two cancelled scans are given back');
      held.release();
      await until(async () => (await request(h.app).get(`/batches/${created.body.batchId}`).set('Authorization', bearer(k))).body.done === 1, 'the running item to finish');
      assert.equal(held.calls.length, 1, 'no cancelled item was scanned');
    } finally {
      held.release();
      await h.close();
    }
    await request(t.app).delete(`/batches/${batchId}`).set('Authorization', bearer(key)).expect(200).expect(conforms).expect((r) => assert.equal(r.body.status, 'done'));
    // A DELETE carries no body; one sent anyway is still bounded and must be readable.
    await request(t.app).delete(`/batches/${batchId}`).set('Authorization', bearer(key)).send({ pad: 'x'.repeat(70_000) }).expect(413).expect(conforms);
    await request(t.app).delete(`/batches/${batchId}`).set('Authorization', bearer(key)).set('Content-Type', 'application/json').set('Content-Encoding', 'br').send('{}').expect(415).expect(conforms);
  });

  test('503 when the job engine cannot take the batch: nothing is stored and no budget spent', async () => {
    const failing = downEngine;
    const down = await scanApiApp({ OPERATOR_TOKEN: TOKEN }, { scanner: fakeScanner() });
    await down.close();
    const d = await (await import('../helpers/app.ts')).testApp({ OPERATOR_TOKEN: TOKEN, LOG_LEVEL: 'silent' }, {}, { scanner: fakeScanner(), jobs: failing });
    try {
      const { keyId, key: k } = await d.services.keys.create('Unlucky', 10);
      const res = await request(d.app).post('/batches').set('Authorization', bearer(k)).send({ domains: ['u1.batch-site.com', 'u2.batch-site.com'] }).expect(503).expect(conforms);
      assert.match(res.body.error, /Nothing was stored/);
      assert.equal(res.headers['retry-after'], '30');
      assert.equal((await d.ctx.db('batches').count({ n: '*' }).first())?.n, 0);
      assert.equal((await d.ctx.db('batch_items').count({ n: '*' }).first())?.n, 0);
      assert.equal((await d.services.keys.peek(keyId)).remaining, 10);
    } finally {
      await d.close();
    }
  });
});
