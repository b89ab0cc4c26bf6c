// The diff page in a real browser (Debian's Chromium through playwright-core): two full-size
// reports of one site whose edge, checks, vendors and robots.txt changed. axe-core finds no
// violation at any impact on a laptop and a phone, a phone never scrolls sideways, robots.txt
// lines carrying script payloads run nothing. Screenshots go to test-artifacts/ to be looked at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import { archiveScan } from '../../src/storage/queries/archiveScan.ts';
import type { EngineReport, EvidenceRecord } from '../../src/scanner/types.ts';
import type { TestApp } from '../helpers/app.ts';
import { fullCatalog, fullReport } from '../report/fixtures.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { fakeScanner } from '../scan-api/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const DOMAIN = 'diff-site.com';
const PAYLOAD = 'Disallow: /"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const ROBOTS_BEFORE = 'User-agent: *\nAllow: /\n\nSitemap: https://diff-site.com/sitemap.xml\n';
const ROBOTS_AFTER = `User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n${PAYLOAD}\n`;

/** The later report: GPTBot and ClaudeBot now blocked on both networks, one check fails, one passes, Akamai appears. */
function later(r: EngineReport): EngineReport {
  const flip = new Set(['GPTBot', 'ClaudeBot', 'CCBot']);
  return {
    ...r, headline: 'partially-blocked', confidence: 'medium',
    score: { ...r.score, value: (r.score.value ?? 60) - 12, display: String((r.score.value ?? 60) - 12) },
    checks: r.checks.map((c, i) => (i === 0 ? { ...c, status: c.status === 'pass' ? 'fail' : 'pass' } : i === 3 ? { ...c, status: 'inconclusive', credit: undefined } : c)),
    matrix: r.matrix.map((m) => (flip.has(m.ua) && m.edgeDoes ? {
      ...m, robotsSays: m.ua === 'ClaudeBot' ? m.robotsSays : 'blocked', edgeDoes: { networkA: 'block', networkB: m.ua === 'CCBot' ? 'challenge' : 'block' }, httpStatus: { networkA: 403, networkB: 403 }, verdict: 'denied', attributedVendors: ['akamai'],
    } : m)),
  };
}

describe('the diff page in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  const ids = [randomUUID(), randomUUID()] as const;
  before(async () => {
    t = await scanApiApp({}, { scanner: fakeScanner(), catalog: fullCatalog });
    const full = fullReport(DOMAIN);
    const write = (id: string, report: EngineReport, evidence: EvidenceRecord[], robots: string, at: string) => archiveScan(t.ctx.db, {
      id, kind: 'site', domain: DOMAIN, headline: report.headline, score: report.score.value, report: JSON.stringify({ ...report, scanId: id, scannedAt: at, outreachEligible: false }),
      evidence: JSON.stringify(evidence), scanned_at: at, lead_name: 'Ada', lead_email: 'ada@diff-site.com', lead_phone: null, lead_role: null, upload_token_hash: null,
    }, [], undefined, undefined, [{ path: '/robots.txt', state: 'present', body: robots }]);
    await write(ids[0], full.report, full.evidence, ROBOTS_BEFORE, '2026-11-01T08:00:00.000Z');
    await write(ids[1], later(full.report), full.evidence, ROBOTS_AFTER, '2026-11-08T08:00:00.000Z');
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
    page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems };
  }

  async function violations(page: Page): Promise<string[]> {
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`);
  }

  for (const [name, viewport] of [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`browser: the diff page on a ${name} is axe-clean, never scrolls sideways, runs nothing from robots.txt, and its screenshot is kept`, async () => {
      const { page, problems } = await open(`${base}/r/${ids[0]}/diff/${ids[1]}`, viewport);
      assert.equal(await page.locator('h1').innerText(), DOMAIN);
      assert.ok(await page.evaluate('document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length > 50'), 'the linked stylesheet applies (CSP, integrity)');
      assert.ok(await page.getByText('Requests identifying as GPTBot and ClaudeBot from network B are now blocked (they were served).').isVisible());
      assert.ok(await page.locator('pre.udiff .da', { hasText: PAYLOAD }).isVisible(), 'the payload shows as a added line of text');
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
      assert.equal(await page.locator('script, img').count(), 0);
      assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0);
      await page.screenshot({ path: path.join(ARTIFACTS, `diff-${name}.png`), fullPage: true });
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }
});
