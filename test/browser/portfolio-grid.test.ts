// The batch summary's portfolio grid in a real browser on a 1,000-site batch scanned through the
// job engine by a fake scanner (test/scan-api/fixtures.ts). Fidelity: synthetic; each report is
// the full-size report fixture of the whole roster (test/report/fixtures.ts) with site n's first
// n % 10 probed agents made denied (blocked on both networks) and every other denial served. The page holds one page of 100 rows,
// never 1,000 × 27 cells; rows come most agents denied first and each links its report; the
// pager walks to the last page and past it; a phone never scrolls sideways (the grid scrolls in
// its own region); axe finds no violation. Screenshots go to test-artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import type { TestApp } from '../helpers/app.ts';
import { fullCatalog, fullReport } from '../report/fixtures.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { fakeScanner } from '../scan-api/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const AXE = path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);
const SITES = 1000;

/** Site n denies its first n % 10 probeable agents; every other verdict stays as the full report has it, minus its own denials. */
const deniedFor = (n: number) => n % 10;

describe('the portfolio grid on a 1,000-site batch in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let key: string;
  let batchId: string;
  let summaryPage: string;
  before(async () => {
    const scanner = fakeScanner({
      make: (d) => {
        const n = Number(/^s(\d+)\./.exec(d)![1]);
        const { report } = fullReport(d);
        let left = deniedFor(n);
        const matrix = report.matrix.map((m) => {
          if (m.edgeDoes === null) return m;
          // Denied as the engine would find it: the edge blocks on both networks; the others served.
          if (left > 0) { left--; return { ...m, verdict: 'denied' as const, edgeDoes: { networkA: 'block' as const, networkB: 'block' as const }, httpStatus: { networkA: 403, networkB: 403 } }; }
          return m.verdict === 'denied' ? { ...m, verdict: 'pass' as const, edgeDoes: { networkA: 'pass' as const, networkB: 'pass' as const }, httpStatus: { networkA: 200, networkB: 200 } } : m;
        });
        return { ...report, matrix };
      },
    });
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '100', WORKER_CONCURRENCY: '64' }, { scanner, catalog: fullCatalog });
    key = (await t.services.keys.create('Grid Partner', 5000)).key;
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const created = await fetch(`${base}/batches`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: Array.from({ length: SITES }, (_, n) => `s${n}.grid-batch.com`), label: 'Grid of a thousand' }),
    });
    assert.equal(created.status, 202, await created.clone().text());
    const body = (await created.json()) as { batchId: string; links: { summaryPage: string } };
    batchId = body.batchId;
    summaryPage = new URL(body.links.summaryPage).pathname;
    const stop = Date.now() + 600_000;
    for (;;) {
      const b = (await (await fetch(`${base}/batches/${batchId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string; done: number };
      if (b.status === 'done') break;
      if (Date.now() > stop) throw new Error(`the batch did not finish: ${JSON.stringify(b)}`);
      await new Promise((r) => setTimeout(r, 200));
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

  test('browser: 100 rows of 1,000 on a page, most denied first, each linking its report; the pager walks every page; screenshots kept', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    const res = await page.goto(`${base}/batches/${batchId}/summary`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200);
    const grid = page.locator('table.grid');
    const rows = grid.locator('tbody tr');
    assert.equal(await rows.count(), 100, 'one page of rows');
    const agents = await grid.locator('thead th').count() - 1;
    assert.ok(agents >= 20, `a column per roster agent (${agents})`);
    assert.equal(await grid.locator('tbody td').count(), 100 * agents, 'never more cells than one page');
    assert.ok((await page.evaluate('document.getElementsByTagName("*").length') as number) < 20_000, 'the DOM stays one page big');
    const counts = async () => (await rows.locator('th').allInnerTexts()).map((s) => Number(/\((\d+)\)$/.exec(s)![1]));
    const firstPage = await counts();
    assert.deepEqual(firstPage, Array(100).fill(9), 'the 100 sites denying 9 agents come first');
    // Each row's count is what its cells say.
    const deniedCells = await rows.first().locator('td').filter({ hasText: 'denied' }).count();
    assert.equal(deniedCells, 9);
    const href = await rows.first().locator('a').getAttribute('href');
    assert.match(href ?? '', /^\/r\/[0-9a-f-]{36}$/);
    await page.locator('#grid').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'portfolio-grid-laptop.png') });
    let seen = [...firstPage];
    for (let p = 2; p <= 10; p++) {
      await page.getByRole('link', { name: 'Next 100 sites' }).first().click();
      await page.waitForURL(new RegExp(`\\?page=${p}#grid$`));
      const c = await counts();
      assert.equal(c.length, 100);
      seen = seen.concat(c);
    }
    assert.equal(await page.getByRole('link', { name: 'Next 100 sites' }).count(), 0, 'no next after the last page');
    assert.deepEqual(seen, [...seen].sort((a, b) => b - a), 'most denied first across pages');
    assert.deepEqual(seen.filter((n) => n === 0).length, 100);
    const beyond = await page.goto(`${base}/batches/${batchId}/summary?page=11`, { waitUntil: 'load' });
    assert.equal(beyond?.status(), 200);
    assert.ok(await page.getByText('This page is past the last site (1000 scanned).').isVisible());
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('browser: the capability link\'s summary shows the same grid with no header; a phone never scrolls sideways; axe-clean', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const res = await page.goto(`${base}${summaryPage}?page=3`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200);
    assert.equal(await page.locator('table.grid tbody tr').count(), 100);
    assert.ok(await page.getByText('Sites 201 to 300 of 1000').isVisible());
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
    await page.locator('#grid').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'portfolio-grid-phone.png') });
    await page.evaluate(fs.readFileSync(AXE, 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
    assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`), []);
    await context.close();
  });
});
