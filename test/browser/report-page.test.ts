// A real browser (Debian's Chromium through playwright-core) opens report pages: they render
// without console errors, axe-core finds no serious violations, a screenshot is kept under
// test-artifacts/, and a site whose title and robots.txt carry script payloads runs nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, evidenceFor, fakeScanner } from '../scan-api/fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const PAYLOAD = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;
const ROBOTS_LINE = `Disallow: /"><script>window.__pwned=3</script>`;

const hostileScanner = () => {
  const s = fakeScanner({
    make: (d) => cannedReport(d, {
      reasons: [`robots.txt says ${ROBOTS_LINE} for GPTBot`, `The home page title is ${PAYLOAD}`],
      confidenceNote: `note ${PAYLOAD}`,
      checks: [{ id: 'robots-txt-present', category: 'discovery', weight: 2, status: 'pass', detail: ROBOTS_LINE }],
      matrix: [{
        ua: 'GPTBot', intent: 'training', robotsSays: 'blocked', edgeDoes: { networkA: 'block', networkB: 'block' }, httpStatus: { networkA: 403, networkB: 403 },
        verdict: 'blocked-consistent', measurement: 'measured', attributedVendors: [`Vendor${PAYLOAD}`], notes: [ROBOTS_LINE],
      }],
    }),
  });
  const scan = s.scan.bind(s);
  s.scan = async (domain, opts) => {
    const out = await scan(domain, opts);
    out.evidence = evidenceFor(domain).map((e) => ({ ...e, title: PAYLOAD, finalUrl: `javascript:window.__pwned=4//${PAYLOAD}` }));
    return out;
  };
  return s;
};

describe('report pages in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  before(async () => {
    t = await scanApiApp({}, {
      scanner: hostileScanner(),
      catalog: (id) => (id === 'robots-txt-present' ? { name: 'robots.txt is published', why: 'Agents read it first.', fix: 'Serve /robots.txt as text/plain.' } : undefined),
    });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
  });

  async function open(url: string, viewport = { width: 1280, height: 900 }): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    // Evaluated over the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: unknown[] }[] };
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length}`);
  }

  test('browser: a report page renders with no console errors, no serious axe violations, and a screenshot', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'browser-site.com', lead: { name: 'Ada', email: 'ada@browser-site.com' } }).expect(200);
    await request(t.app).post(`/r/${scan.body.scanId}/cli-vantage`).send({ domain: 'browser-site.com', uploadToken: scan.body.cliUploadToken, observations: [{ key: 'control:browser', status: 200 }, { key: 'grid:GPTBot', status: 200 }] }).expect(200);
    const { page, problems } = await open(`${base}/r/${scan.body.scanId}`);
    assert.equal(await page.locator('h1').innerText(), 'browser-site.com');
    assert.ok(await page.getByText('Your network').count() > 0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-page.png'), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: script payloads from the site title and robots.txt execute nothing', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'hostile-site.com', lead: { name: 'Ada', email: 'ada@hostile-site.com' } }).expect(200);
    const { page, problems } = await open(`${base}/r/${scan.body.scanId}`);
    await page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`); // every fold open, evidence too
    assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
    assert.equal(await page.locator('script').count(), 0);
    assert.equal(await page.locator('img:not([src^="/badge/"]), img[onerror]').count(), 0, 'the only image is our own badge');
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.ok((await page.content()).includes('&lt;script&gt;window.__pwned=1&lt;/script&gt;'));
    assert.ok((await page.locator('body').innerText()).includes('<script>window.__pwned=1</script>'), 'shown as text');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: the report reads on a phone without horizontal page scroll', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'phone-site.com', lead: { name: 'Ada', email: 'ada@phone-site.com' } }).expect(200);
    const { page, problems } = await open(`${base}/r/${scan.body.scanId}`, { width: 360, height: 740 });
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok((overflow as number) <= 0, `page scrolls sideways by ${overflow}px`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-page-phone.png'), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: the 404 page is helpful and clean', async () => {
    const { page, problems } = await open(`${base}/r/00000000-0000-4000-8000-000000000000`);
    assert.match(await page.locator('h1').innerText(), /No report with this id/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-404.png') });
    assert.deepEqual(await seriousViolations(page), []);
    // Chromium logs the 404 status of the document itself as a console error; nothing else may appear.
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
    await page.context().close();
  });
});
