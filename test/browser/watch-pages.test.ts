// The watch pages in a real browser (Debian's Chromium through playwright-core): the mail's
// confirmation link and its button, the unsubscribe link and its button, and the manage page
// (getWatch in a browser) of a watch whose second run found a change. axe-core finds no
// violation at any impact on a laptop and a phone, a phone never scrolls sideways, the
// buttons' posts pass the pages' CSP (form-action 'self'). Screenshots go to test-artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import request from 'supertest';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { cannedReport, fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { recordingDeliveries, until } from '../watches/fakes.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING watch page browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);
const lead = { name: 'Ada Lovelace', email: 'ada@watch-pages.com' };

describe('the watch pages in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let manage: string;
  let confirmPath: string;
  let unsubscribePath: string;
  before(async () => {
    let n = 0;
    // The second scan of the keyed site finds GPTBot newly blocked and the headline changed.
    const scanner = fakeScanner({ make: (d) => (d === 'keyed.watch-pages.com' && n++ > 0 ? cannedReport(d) : cannedReport(d, { headline: 'open', matrix: cannedReport(d).matrix.map((m) => (m.ua === 'GPTBot' ? { ...m, edgeDoes: { networkA: 'pass', networkB: 'pass' }, httpStatus: { networkA: 200, networkB: 200 }, verdict: 'pass' } : m)) })) });
    t = await testApp({ LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '1', COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '50/60' }, {}, { scanner, scans: { resolve: fakeResolver() }, deliveries: recordingDeliveries() });
    const { key } = await t.services.keys.create('Pages', 50);
    const keyed = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`).send({ domain: 'keyed.watch-pages.com', lead, every: 'week', notify: { webhookUrl: 'https://hooks.watch-pages.com/in' } }).expect(202);
    manage = new URL(keyed.body.manageUrl).pathname + new URL(keyed.body.manageUrl).search;
    await until(async () => (await request(t.app).get(manage).set('Accept', 'application/json')).body.runs.some((r: { changes: unknown[] }) => r.changes.length > 0), 'a run that found a change');
    await request(t.app).delete(manage).expect(200); // ended: no more runs while the pages are looked at
    const pending = await request(t.app).post('/watches').send({ domain: 'mailed.watch-pages.com', lead, every: 'day' }).expect(202);
    const text = (await listMail(t.ctx.db)).find((m) => m.watch_id === pending.body.watchId)!.text_body;
    const link = (kind: string) => { const u = new URL(new RegExp(`https?://\\S+/watches/[0-9a-f-]{36}/${kind}\\?token=\\S{43}`).exec(text)![0]); return u.pathname + u.search; };
    confirmPath = link('confirm');
    unsubscribePath = link('unsubscribe');
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchHeadless();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
  });

  async function open(url: string, viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems };
  }

  async function check(page: Page, shot: string): Promise<void> {
    assert.ok(await page.evaluate('document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length > 50'), 'the linked stylesheet applies (CSP, integrity)');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
    await page.screenshot({ path: path.join(ARTIFACTS, `${shot}.png`), fullPage: true });
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
    assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`), [], shot);
  }

  for (const [name, viewport] of [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`browser: the manage page on a ${name} shows the runs and what changed; axe-clean`, async () => {
      const { page, problems } = await open(`${base}${manage}`, viewport);
      assert.equal(await page.locator('h1').innerText(), 'Watch of keyed.watch-pages.com');
      assert.ok(await page.getByText('The headline went from open to partially-blocked.').first().isVisible());
      await check(page, `watch-manage-${name}`);
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }

  test('browser: the confirmation link shows a button; pressing it confirms (the post passes the CSP); both pages axe-clean', async () => {
    const { page, problems } = await open(`${base}${confirmPath}`, { width: 390, height: 844 });
    await check(page, 'watch-confirm-phone');
    await Promise.all([page.waitForURL(/\/confirm\?token=/), page.getByRole('button', { name: 'Start watching' }).click()]);
    await page.waitForLoadState('load');
    assert.match(await page.locator('h1').innerText(), /^Watching mailed\.watch-pages\.com$/);
    await check(page, 'watch-confirmed-phone');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: the unsubscribe link shows a button; pressing it ends the watch; both pages axe-clean', async () => {
    const { page, problems } = await open(`${base}${unsubscribePath}`, { width: 1366, height: 768 });
    await check(page, 'watch-unsubscribe-laptop');
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await page.waitForLoadState('load');
    await page.locator('h1', { hasText: 'This watch has ended' }).waitFor();
    await check(page, 'watch-ended-laptop');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
