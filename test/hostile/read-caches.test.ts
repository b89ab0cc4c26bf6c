// The rendered report page is kept briefly (src/report/page-cache.ts, a fix from the read
// benchmark's profile): repeated views are identical, and a CLI-vantage attach on this
// instance shows on the very next view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { conforms } from '../helpers/contract.ts';
import { hostileApp, type HostileApp } from './lib/hostile-app.ts';
import { rawRequest } from './lib/raw-http.ts';

describe('report page cache', () => {
  let t: HostileApp;
  before(async () => {
    t = await hostileApp();
  });
  after(() => t.close());

  test('a cached report page is served identically, headers included, and an attach on this instance shows at once', async () => {
    const scan = await rawRequest(t.url, {
      method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'page-cache.com', lead: { name: 'Cache Tester', email: 'cache@page-cache.com' } }),
    });
    conforms(scan);
    const { scanId, cliUploadToken } = JSON.parse(scan.text) as { scanId: string; cliUploadToken: string };
    const headersOf = (res: { headers: Record<string, unknown> }) => {
      const { date: _date, 'x-request-id': _id, 'content-length': _length, ...rest } = res.headers;
      return rest;
    };
    let firstHeaders: Record<string, unknown> | undefined;
    const view = async () => {
      const res = await rawRequest(t.url, { method: 'GET', path: `/r/${scanId}`, headers: { Accept: 'text/html' } });
      conforms(res);
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'private, max-age=60');
      // The cached page goes out with exactly the headers of the rendered one.
      if (firstHeaders) assert.deepEqual(headersOf(res), firstHeaders);
      else firstHeaders = headersOf(res);
      for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-robots-tag', 'x-frame-options']) assert.ok(res.headers[name], name);
      return res.text;
    };
    const first = await view();
    assert.equal(await view(), first);
    assert.doesNotMatch(first, /Your network/);
    const attach = await rawRequest(t.url, {
      method: 'POST', path: `/r/${scanId}/cli-vantage`, headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'page-cache.com', uploadToken: cliUploadToken, observations: [{ key: 'control:browser', status: 200 }] }),
    });
    conforms(attach);
    assert.equal(attach.status, 200, attach.text);
    assert.match(await view(), /Your network/);
  });

  test('an upper-case id is the same page as its lower-case form', async () => {
    const scan = await rawRequest(t.url, {
      method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'page-cache-upper.com', lead: { name: 'Cache Tester', email: 'cache@page-cache.com' } }),
    });
    const { scanId } = JSON.parse(scan.text) as { scanId: string };
    const lower = await rawRequest(t.url, { method: 'GET', path: `/r/${scanId}`, headers: { Accept: 'text/html' } });
    const upper = await rawRequest(t.url, { method: 'GET', path: `/r/${scanId.toUpperCase()}`, headers: { Accept: 'text/html' } });
    conforms(upper);
    assert.equal(upper.text, lower.text);
  });
});

describe('badge cache', () => {
  test('the badge shows a new scan of the domain at once on the instance that archived it', async () => {
    const { testApp } = await import('../helpers/app.ts');
    const { cannedReport, evidenceFor } = await import('../scan-api/fixtures.ts');
    const { publicResolver } = await import('./lib/hostile-app.ts');
    const request = (await import('supertest')).default;
    let score = 40;
    const scanner = { scan: async (d: string) => ({ report: cannedReport(d, { score: { ...cannedReport(d).score, value: score, display: String(score) } }), evidence: evidenceFor(d) }) };
    const t = await testApp({ RATE_LIMIT_PER_DOMAIN: '100/1' }, {}, { scanner, scans: { resolve: publicResolver } });
    try {
      const lead = { name: 'Badge Tester', email: 'badge@badge-cache.com' };
      await request(t.app).post('/scan').send({ domain: 'badge-cache.com', lead }).expect(200).expect(conforms);
      const svg = async () => {
        const res = await request(t.app).get('/badge/badge-cache.com.svg').buffer(true)
          .parse((r, cb) => { let d = ''; r.on('data', (c: Buffer) => { d += c.toString(); }); r.on('end', () => cb(null, d)); });
        assert.equal(res.status, 200);
        return String(res.body);
      };
      assert.match(await svg(), /40/);
      score = 93;
      await request(t.app).post('/scan').send({ domain: 'badge-cache.com', lead, fresh: true }).expect(200).expect(conforms);
      const second = await svg();
      assert.match(second, /93/);
      assert.doesNotMatch(second, /\b40\b/);
    } finally {
      await t.close();
    }
  });
});
