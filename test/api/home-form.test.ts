// The front door: GET / (HTML for people, Markdown for agents) and the form posted to POST /
// without JavaScript, through the real app and the same scan service as POST /scan.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const lead = { name: 'Ada Lovelace', email: 'ada@form-site.com' };

describe('GET / and the scan form', () => {
  let t: TestApp;
  let failing: TestApp;
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_DOMAIN: '2/60', RATE_LIMIT_PER_IP: '100/60', EXCLUDED_DOMAINS: 'optout-form.com' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    failing = await testApp({}, {}, { scanner: fakeScanner({ fail: 'the site did not answer in time' }), scans: { resolve: fakeResolver() } });
  });
  after(async () => { await t.close(); await failing.close(); });

  const post = (app: TestApp['app'], fields: Record<string, string>) =>
    request(app).post('/').set('Content-Type', 'application/x-www-form-urlencoded').set('Accept', 'text/html').send(form(fields));

  test('GET / is an HTML page that says what we measure, with the form, structured data and a strict CSP', async () => {
    const res = await request(t.app).get('/').set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /text\/html/);
    assert.match(res.headers.vary!, /Accept/);
    assert.match(res.text, /<form method="post" action="\/"/);
    for (const name of ['domain', 'name', 'email', 'phone', 'role', 'profile']) assert.match(res.text, new RegExp(`name="${name}"`));
    // Advanced options: the rubric, the current one by default (the empty value) and the previous one selectable.
    assert.match(res.text, /<details id="advanced"><summary>Advanced options<\/summary>[\s\S]*<select id="f-rubric" name="rubric"><option value="">rubric-v1\.2 \(current\)<\/option><option value="rubric-v1\.1">rubric-v1\.1 \(previous\)<\/option><\/select>/);
    assert.match(res.text, /<script type="application\/ld\+json">\{"@context":"https:\/\/schema\.org","@type":"WebApplication"/);
    assert.doesNotMatch(res.text, /cf-turnstile/, 'no widget while the gate is off');
    const csp = res.headers['content-security-policy']!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self'/);
    // Only the page's own script file (no inline script, no eval), and its stream on this origin.
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(res.text, /<script src="\/assets\/home\.js" defer><\/script>/);
    // The report pages' stylesheet file (this origin), then the form's own rules inline by hash.
    assert.match(csp, /style-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
    assert.match(res.text, /<link rel="stylesheet" href="\/assets\/report\.[0-9a-f]{16}\.css" integrity="sha256-[A-Za-z0-9+/=]+"><style>/);
  });

  test('GET / with Accept: text/markdown is the same content as Markdown', async () => {
    const res = await request(t.app).get('/').set('Accept', 'text/markdown').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /text\/markdown/);
    assert.match(res.text, /^# agent-readiness/);
    assert.match(res.text, /POST http:\/\/agent-readiness\.test\/scan/);
  });

  test('a valid form lands on the report permalink with 303, through the same scan service', async () => {
    const res = await post(t.app, { domain: 'https://www.form-site.com/pricing', ...lead }).expect(303).expect(conforms);
    assert.match(res.headers.location!, /^\/r\/[0-9a-f-]{36}$/);
    const report = await request(t.app).get(res.headers.location!).set('Accept', 'application/json').expect(200);
    assert.equal(report.body.domain, 'form-site.com', 'the pasted URL is normalised as POST /scan does');
  });

  test('a form with a broken lead comes back as the form, 400, saying what to fix and keeping what was typed', async () => {
    const res = await post(t.app, { domain: 'form-site.com', name: 'A', email: 'ada@form-site.com' }).expect(400).expect(conforms);
    assert.match(res.headers['content-type']!, /text\/html/);
    assert.match(res.text, /role="alert"/);
    assert.match(res.text, /Please check the form/);
    assert.match(res.text, /Your name must be 2 to 120 characters\./, 'the form\'s own label, not the API field');
    assert.doesNotMatch(res.text, /lead\.name/);
    assert.match(res.text, /value="ada@form-site\.com"/);
  });

  test('a form with no domain or an IP address is a 400 page, not a raw validation error', async () => {
    const none = await post(t.app, { ...lead }).expect(400).expect(conforms);
    assert.match(none.text, /Please check the form/);
    const ip = await post(t.app, { domain: '10.0.0.1', ...lead }).expect(400).expect(conforms);
    assert.match(ip.text, /role="alert"/);
  });

  test('markup typed into the form is escaped when the form comes back', async () => {
    const res = await post(t.app, { domain: '"><script>alert(1)</script>', ...lead }).expect(400).expect(conforms);
    assert.doesNotMatch(res.text, /<script>alert\(1\)<\/script>/);
    assert.match(res.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  test('the form\'s problem shows code as code: localhost points at the CLI command, and typed backticks and markup stay text', async () => {
    const local = await post(t.app, { domain: 'localhost:3000', ...lead }).expect(400).expect(conforms);
    assert.match(local.text, /<code>npx agent-readiness scan localhost:&lt;port&gt;<\/code>/);
    const typed = await post(t.app, { domain: '`<img src=x onerror=alert(1)>`', ...lead }).expect(400).expect(conforms);
    assert.doesNotMatch(typed.text, /<img/);
    assert.match(typed.text, /<code>&lt;img src=x onerror=alert\(1\)&gt;<\/code>/);
  });

  test('an excluded domain is a 403 page that says why not', async () => {
    const res = await post(t.app, { domain: 'optout-form.com', ...lead }).expect(403).expect(conforms);
    assert.match(res.text, /This scan cannot run/);
  });

  test('too many scans from one address is a 429 page with Retry-After and the wait in words', async () => {
    const busy = await testApp({ RATE_LIMIT_PER_IP: '2/1800' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    try {
      await post(busy.app, { domain: 'one.form-site.com', ...lead }).expect(303);
      await post(busy.app, { domain: 'two.form-site.com', ...lead }).expect(303);
      const res = await post(busy.app, { domain: 'three.form-site.com', ...lead }).expect(429).expect(conforms);
      assert.match(res.headers['retry-after']!, /^\d+$/);
      assert.match(res.text, /Too many scans for now/);
      assert.match(res.text, /You can try again in 30 minutes\./, "1800 s said as minutes");
      assert.equal((res.text.match(/try again/gi) ?? []).length, 1, "the wait is said once");
    } finally {
      await busy.close();
    }
  });

  test('the 429 page keeps what was typed', async () => {
    const busy = await testApp({ RATE_LIMIT_PER_IP: '1/1800' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    try {
      await post(busy.app, { domain: 'a.form-site.com', ...lead }).expect(303);
      const res = await post(busy.app, { domain: 'b.form-site.com', ...lead }).expect(429);
      assert.match(res.text, /value="b\.form-site\.com"/);
    } finally {
      await busy.close();
    }
  });

  test('a scan that cannot complete is a 502 page saying why', async () => {
    const res = await post(failing.app, { domain: 'form-site.com', ...lead }).expect(502).expect(conforms);
    assert.match(res.text, /The scan could not complete/);
  });

  test('a form body over 16 KB is 413 and a body that is not a form is 415, in the Error shape', async () => {
    const big = await request(t.app).post('/').set('Content-Type', 'application/x-www-form-urlencoded').send(form({ domain: 'x'.repeat(20_000) })).expect(413).expect(conforms);
    assert.match(big.body.error, /larger than 16 KB/);
    await request(t.app).post('/').set('Content-Type', 'text/plain').send('domain=example.com').expect(415).expect(conforms);
    // A field over its length limit never reaches the form handler: the Error shape.
    const long = await request(t.app).post('/').set('Content-Type', 'application/x-www-form-urlencoded').send(form({ domain: 'x'.repeat(3000) })).expect(400).expect(conforms);
    assert.ok(long.body.error);
  });

  test('a tunnel host, never archived, gets its report inline with 200', async () => {
    const res = await post(t.app, { domain: 'demo-123.trycloudflare.com', ...lead }).expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /text\/html/);
    assert.match(res.text, /demo-123\.trycloudflare\.com/);
  });
});

describe('the form with the human-verification gate on', () => {
  let t: TestApp;
  before(async () => { t = await testApp({ TURNSTILE_SECRET: 'secret', TURNSTILE_SITE_KEY: '0x4AAAAAAAtest' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } }); });
  after(() => t.close());

  test('shows the Turnstile widget and allows only its script and frame', async () => {
    const res = await request(t.app).get('/').set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(res.text, /class="cf-turnstile" data-sitekey="0x4AAAAAAAtest"/);
    assert.match(res.headers['content-security-policy']!, /script-src 'self' https:\/\/challenges\.cloudflare\.com; frame-src https:\/\/challenges\.cloudflare\.com/);
  });

  test('a form without the widget\'s token is a 403 page', async () => {
    const res = await request(t.app).post('/').set('Content-Type', 'application/x-www-form-urlencoded')
      .send(form({ domain: 'form-site.com', ...lead })).expect(403).expect(conforms);
    assert.match(res.text, /This scan cannot run/);
  });
});
