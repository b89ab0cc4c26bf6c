import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { addExcludedDomain } from '../../src/storage/queries/excludedDomains.ts';
import { archiveScan } from '../../src/storage/queries/archiveScan.ts';
import { openapiDocument } from '../../generated/openapi.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@api-site.com' };

/** supertest buffers image/* as binary; read SVG as text. */
function asText(r: request.Response, cb: (err: Error | null, body: unknown) => void): void {
  const stream = r as unknown as NodeJS.ReadableStream;
  let s = '';
  stream.on('data', (c: Buffer) => { s += c.toString('utf8'); });
  stream.on('end', () => cb(null, s));
}

describe('POST /scan, GET /r/{scanId}, GET /badge over HTTP', () => {
  let t: TestApp;
  let clock = Date.parse('2026-05-01T12:00:00Z');
  const scanner = fakeScanner();
  before(async () => {
    t = await scanApiApp({ EXCLUDED_DOMAINS: 'optout-api.com', RATE_LIMIT_PER_IP: '100/1800' }, { scanner });
    t.ctx.now = () => new Date(clock);
  });
  after(() => t.close());

  test('POST /scan 200 carries the report, RateLimit headers, reportUrl and the upload token', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 'https://www.api-site.com/x', lead }).expect(200).expect(conforms);
    assert.equal(res.headers['ratelimit-limit'], '3');
    assert.equal(res.headers['ratelimit-remaining'], '2');
    assert.equal(res.body.domain, 'api-site.com');
    assert.equal(res.body.coalesced, false);
    assert.match(res.body.reportUrl, /^http:\/\/agent-readiness\.test\/r\//);
    assert.ok(res.body.cliUploadToken);
  });

  test('POST /scan repeat is coalesced with ageMs and RateLimit headers', async () => {
    clock += 3000;
    const res = await request(t.app).post('/scan').send({ domain: 'api-site.com', lead }).expect(200).expect(conforms);
    assert.equal(res.body.coalesced, true);
    assert.equal(res.body.ageMs, 3000);
    assert.equal(res.body.cliUploadToken, undefined);
    assert.equal(res.headers['ratelimit-remaining'], '2');
  });

  test('POST /scan pins the profile it is given and rejects an unknown one', async () => {
    await request(t.app).post('/scan').send({ domain: 'pinned-api.com', lead, profile: 'docs' }).expect(200).expect(conforms);
    assert.equal(scanner.profiles.at(-1), 'docs');
    await request(t.app).post('/scan').send({ domain: 'pinned-api.com', lead, profile: 'everything' }).expect(400).expect(conforms);
  });

  test('POST /scan 400 for a missing lead carries required; 400 for an IP literal', async () => {
    const a = await request(t.app).post('/scan').send({ domain: 'api-site.com' }).expect(400).expect(conforms);
    assert.ok(a.body.required);
    const b = await request(t.app).post('/scan').send({ domain: '10.0.0.1', lead }).expect(400).expect(conforms);
    assert.match(b.body.error, /IP/);
  });

  test('POST /scan 403 for an excluded domain from config and from the table', async () => {
    await request(t.app).post('/scan').send({ domain: 'optout-api.com', lead }).expect(403).expect(conforms);
    await addExcludedDomain(t.ctx.db, 'table-optout-api.com', null, new Date(clock).toISOString());
    const res = await request(t.app).post('/scan').send({ domain: 'www.table-optout-api.com', lead }).expect(403).expect(conforms);
    assert.equal(res.body.domain, 'table-optout-api.com');
  });

  test('POST /scan 429 carries Retry-After and retryAfterSeconds', async () => {
    for (let i = 0; i < 3; i++) await request(t.app).post('/scan').send({ domain: 'busy-api.com', lead, fresh: true }).expect(200).expect(conforms);
    const res = await request(t.app).post('/scan').send({ domain: 'busy-api.com', lead, fresh: true }).expect(429).expect(conforms);
    assert.equal(res.headers['retry-after'], String(res.body.retryAfterSeconds));
    assert.ok(res.body.error);
  });

  test('POST /scan 413 above the body limit and 415 for a non-JSON body', async () => {
    await request(t.app).post('/scan').send({ domain: 'api-site.com', lead, turnstileToken: 'x'.repeat(20000) }).expect(413).expect(conforms);
    await request(t.app).post('/scan').set('content-type', 'text/plain').send('domain=api-site.com').expect(415).expect(conforms);
  });

  test('GET /r/{scanId} serves the page with a strict CSP, JSON on request, and a helpful 404', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'page-api.com', lead }).expect(200);
    const id = scan.body.scanId as string;
    const page = await request(t.app).get(`/r/${id}`).expect(200).expect(conforms);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    // Only this origin's own script (the watch form's, /assets/watch-form.js) may run: nothing inline, nothing elsewhere.
    assert.match(String(page.headers['content-security-policy']), /script-src 'self';/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /unsafe|sha256|https?:/);
    assert.deepEqual([...page.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]), ['<script src="/assets/watch-form.js" defer>']);
    assert.ok(page.text.includes('page-api.com'));
    assert.ok(!page.text.includes(scan.body.cliUploadToken), 'the token never appears on the page');
    assert.ok(!page.text.includes('ada@api-site.com'), 'the lead never appears on the page');
    const json = await request(t.app).get(`/r/${id}`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(json.body.scanId, id);
    assert.equal(json.body.cliUploadToken, undefined);
    assert.equal(json.body.coalesced, undefined);
    assert.equal(json.body.lead, undefined);
    const missing = await request(t.app).get('/r/00000000-0000-4000-8000-000000000000').expect(404).expect(conforms);
    assert.match(missing.text, /No report with this id/);
    await request(t.app).get('/r/00000000-0000-4000-8000-000000000000').set('Accept', 'application/json').expect(404).expect(conforms);
    await request(t.app).get('/r/not-a-uuid').set('Accept', 'application/json').expect(400).expect(conforms);
  });

  test('the page links its stylesheet, served under its content-named file for a year; any other name is 404, an undecodable one 400', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'style-api.com', lead }).expect(200);
    const page = await request(t.app).get(`/r/${scan.body.scanId}`).expect(200).expect(conforms);
    const link = /<link rel="stylesheet" href="(\/assets\/report\.[0-9a-f]{16}\.css)" integrity="(sha256-[A-Za-z0-9+/=]+)">/.exec(page.text);
    assert.ok(link, 'the page links its stylesheet');
    assert.match(String(page.headers['content-security-policy']), /style-src 'self';/);
    const css = await request(t.app).get(link[1]!).buffer(true).parse(asText).expect(200).expect(conforms);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(css.headers['x-content-type-options'], 'nosniff');
    assert.equal(`sha256-${createHash('sha256').update(String(css.body)).digest('base64')}`, link[2], 'the integrity is the served bytes');
    assert.equal(`/assets/report.${createHash('sha256').update(String(css.body)).digest('hex').slice(0, 16)}.css`, link[1], 'the name is the served bytes');
    await request(t.app).get('/assets/report.0000000000000000.css').expect(404).expect(conforms);
    await request(t.app).get('/assets/home.css').expect(404).expect(conforms);
    await request(t.app).get('/assets/%zz.css').expect(400).expect(conforms);
  });

  test('GET /badge/{domain}.svg routes dotted domains, is grey for unknown, and 404s for never-scanned domains', async () => {
    await request(t.app).post('/scan').send({ domain: 'badge.api-site.com', lead }).expect(200);
    const res = await request(t.app).get('/badge/badge.api-site.com.svg').buffer(true).parse(asText).expect(200).expect(conforms);
    assert.match(String(res.headers['content-type']), /image\/svg\+xml/);
    assert.match(String(res.headers['cache-control']), /max-age=\d+/);
    assert.match(String(res.body), /72/);
    assert.match(String(res.body), /partially-blocked/);
    assert.match(String(res.body), /<title>agent-ready rubric-v1\.1: 72 · partially-blocked<\/title>/, 'the badge names the rubric of the report it shows');
    const none = await request(t.app).get('/badge/never-scanned-api.com.svg').buffer(true).parse(asText).expect(404).expect(conforms);
    assert.match(String(none.body), /not scanned/);
    await request(t.app).get('/badge/never-scanned-api.com.svg').set('Accept', 'application/json').expect(404).expect(conforms);
  });
});

describe('GET /r/{scanId} for MCP-server reports', () => {
  test('an archived MCP-server report is JSON by default, an HTML checklist for a browser, and ?format= chooses either', async () => {
    const t = await scanApiApp({}, { scanner: fakeScanner() });
    try {
      const example = (openapiDocument as unknown as { components: { examples: Record<string, { value: Record<string, unknown> }> } }).components.examples.McpServerReport!.value;
      const id = example.scanId as string;
      const { reportUrl: _drop, ...payload } = example;
      await archiveScan(t.ctx.db, {
        id, kind: 'mcp-server', domain: 'mcp.api-site.com', headline: 'open', score: null, report: JSON.stringify(payload),
        evidence: null, scanned_at: new Date().toISOString(), lead_name: 'Ada', lead_email: 'ada@api-site.com', lead_phone: null, lead_role: null, upload_token_hash: null,
      }, []);
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.9']) {
        const req = request(t.app).get(`/r/${id}`);
        const res = await (accept ? req.set('Accept', accept) : req).expect(200).expect(conforms);
        assert.match(String(res.headers['content-type']), /application\/json/, `Accept ${accept}`);
        assert.equal(res.body.kind, 'mcp-server');
        assert.equal(res.body.archived, true);
        assert.equal(res.body.reportUrl, `http://agent-readiness.test/r/${id}`);
      }
      const browser = await request(t.app).get(`/r/${id}`).set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').expect(200).expect(conforms);
      assert.match(String(browser.headers['content-type']), /text\/html/);
      assert.match(String(browser.headers['content-security-policy']), /default-src 'none'/);
      assert.match(browser.text, /<h1>mcp\.example\.com<\/h1>/);
      assert.match(browser.text, /Unknown methods get -32601/);
      assert.doesNotMatch(browser.text, /<script/i);
      // The cached page never answers a request for the default JSON.
      const again = await request(t.app).get(`/r/${id}`).expect(200).expect(conforms);
      assert.equal(again.body.kind, 'mcp-server');
      const forced = await request(t.app).get(`/r/${id}?format=json`).set('Accept', 'text/html').expect(200).expect(conforms);
      assert.equal(forced.body.kind, 'mcp-server');
      const page = await request(t.app).get(`/r/${id}?format=html`).expect(200).expect(conforms);
      assert.match(page.text, /Checklist/);
      await request(t.app).get(`/r/${id}?format=xml`).set('Accept', 'application/json').expect(400).expect(conforms);
    } finally {
      await t.close();
    }
  });
});

describe('POST /scan 502 over HTTP', () => {
  test('a scan that cannot complete answers 502 with detail', async () => {
    const t = await scanApiApp({}, { scanner: fakeScanner({ fail: 'deadline passed before any vantage answered' }) });
    try {
      const res = await request(t.app).post('/scan').send({ domain: 'down-api.com', lead }).expect(502).expect(conforms);
      assert.match(res.body.detail, /deadline/);
    } finally {
      await t.close();
    }
  });
});

describe('POST /scan with the human-verification gate on', () => {
  let server: http.Server;
  let t: TestApp;
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'human' })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    t = await scanApiApp({ TURNSTILE_SECRET: 'secret', TURNSTILE_VERIFY_URL: url }, { scanner: fakeScanner() });
  });
  after(async () => { await t.close(); await new Promise<void>((r) => server.close(() => r())); });

  test('POST /scan 403 without a turnstile token and 200 with a valid one', async () => {
    await request(t.app).post('/scan').send({ domain: 'gate-api.com', lead }).expect(403).expect(conforms);
    await request(t.app).post('/scan').send({ domain: 'gate-api.com', lead, turnstileToken: 'robot' }).expect(403).expect(conforms);
    await request(t.app).post('/scan').send({ domain: 'gate-api.com', lead, turnstileToken: 'human' }).expect(200).expect(conforms);
  });
});
