// A batch's summary page in a real browser (Debian's Chromium through playwright-core), with the
// partner key as the bearer as a partner's own tooling would send it: twelve full-size reports
// (every roster agent, vendors attributed) summarised. axe-core finds no violation at any impact
// on a laptop and a phone, a phone never scrolls sideways, a label carrying script runs nothing,
// and the charts are drawn. Screenshots go to test-artifacts/ to be looked at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import type { TestApp } from '../helpers/app.ts';
import { fullCatalog, fullReport } from '../report/fixtures.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { fakeScanner } from '../scan-api/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const LABEL = 'Q4 portfolio "><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const HEADLINES = ['open', 'partially-blocked', 'agent-hostile', 'contradictory'] as const;

describe('the batch summary page in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let key: string;
  let batchId: string;
  let links: { summaryPage: string; resultsPage: string };
  before(async () => {
    let i = 0;
    const scanner = fakeScanner({
      make: (d) => {
        const n = i++;
        const { report } = fullReport(d);
        const value = 20 + ((n * 37) % 75);
        return { ...report, headline: HEADLINES[n % HEADLINES.length]!, score: { ...report.score, value, display: String(value) } };
      },
    });
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '4' }, { scanner, catalog: fullCatalog });
    key = (await t.services.keys.create('Summary Partner', 100)).key;
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const created = await fetch(`${base}/batches`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: Array.from({ length: 12 }, (_, n) => `site${n}.summary-batch.com`), label: LABEL }),
    });
    assert.equal(created.status, 202, await created.clone().text());
    ({ batchId, links } = (await created.json()) as { batchId: string; links: { summaryPage: string; resultsPage: string } });
    const stop = Date.now() + 120_000;
    for (;;) {
      const b = (await (await fetch(`${base}/batches/${batchId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string };
      if (b.status === 'done') break;
      if (Date.now() > stop) throw new Error(`the batch did not finish: ${JSON.stringify(b)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    browser = await launchHeadless();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
  });

  for (const [name, viewport] of [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`browser: the summary page on a ${name} is axe-clean, draws its charts, never scrolls sideways, runs nothing from the label; screenshot kept`, async () => {
      const context = await browser.newContext({ viewport, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
      page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
      const res = await page.goto(`${base}/batches/${batchId}/summary`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      assert.match(res!.headers()['content-type'] ?? '', /^text\/html/);
      assert.ok(await page.evaluate('document.styleSheets.length >= 1 && [...document.styleSheets].some((s) => s.cssRules.length > 50)'), 'the linked stylesheet applies (CSP)');
      assert.ok(await page.getByText(LABEL).first().isVisible(), 'the label shows as text');
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
      assert.equal(await page.locator('script, img').count(), 0);
      const charts = page.locator('svg[role="img"]');
      assert.ok(await charts.count() >= 1, 'at least one chart');
      for (const svg of await charts.all()) {
        const box = await svg.boundingBox();
        assert.ok(box && box.width > 50 && box.height > 20, `a chart is drawn at a visible size: ${JSON.stringify(box)}`);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `batch-summary-${name}.png`), fullPage: true });
      assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
      await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
      const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
      assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`), []);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
  test('browser: the capability links open with no header at all (a colleague\'s browser): summary, its link to the table, the CSV download; a rotated link answers the not-found page; screenshots kept', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    // The links name the service's BASE_URL; the browser reaches this test's listener.
    const here = (u: string) => `${base}${new URL(u).pathname}`;
    const res = await page.goto(here(links.summaryPage), { waitUntil: 'load' });
    assert.equal(res?.status(), 200);
    assert.equal(res!.headers()['referrer-policy'], 'no-referrer');
    assert.match(res!.headers()['x-robots-tag'] ?? '', /noindex/);
    assert.ok(await page.getByText(LABEL).first().isVisible(), 'the label shows as text');
    assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
    await page.screenshot({ path: path.join(ARTIFACTS, 'batch-link-summary-phone.png'), fullPage: true });
    await page.getByRole('link', { name: "Every site's result" }).click();
    await page.waitForURL(/\/shared\/[\w-]+\/results$/);
    assert.equal(await page.locator('tbody tr').count(), 12);
    assert.equal(await page.getByRole('link', { name: 'report' }).count(), 12);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
    await page.screenshot({ path: path.join(ARTIFACTS, 'batch-link-results-phone.png'), fullPage: true });
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string }[] };
    assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}`), []);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV' }).first().click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    assert.equal(csv.trim().split('\n').length, 13, 'a header and 12 rows');
    const rotated = await fetch(`${base}/batches/${batchId}/links`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    assert.equal(rotated.status, 200);
    const gone = await page.goto(here(links.summaryPage), { waitUntil: 'load' });
    assert.equal(gone?.status(), 404);
    assert.ok(await page.getByRole('heading', { name: 'This link does not open a batch' }).isVisible());
    await page.screenshot({ path: path.join(ARTIFACTS, 'batch-link-rotated-phone.png') });
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
    await context.close();
  });

  test('browser: with JavaScript off the capability links open the same: the summary, its link to the table, the table\'s pages; screenshot kept', async () => {
    const fresh = await fetch(`${base}/batches/${batchId}/links`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    assert.equal(fresh.status, 200);
    const now = (await fresh.json()) as { summaryPage: string };
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`${base}${new URL(now.summaryPage).pathname}`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200);
    assert.ok(await page.getByText(LABEL).first().isVisible(), 'the label shows as text');
    await Promise.all([page.waitForURL(/\/shared\/[\w-]+\/results$/), page.getByRole('link', { name: "Every site's result" }).click()]);
    assert.equal(await page.locator('tbody tr').count(), 12);
    await page.screenshot({ path: path.join(ARTIFACTS, 'batch-link-results-no-js-phone.png'), fullPage: true });
    await context.close();
  });
});
