// A real browser (Debian's Chromium through playwright-core) opens report pages built from a
// full-size report (all 33 roster agents, every check, evidence with curl, a CLI vantage):
// axe-core finds no violations at any impact on the site report, the MCP-server checklist and
// the 404 page; the agent grid fits one laptop screen; a 390-px phone never scrolls sideways,
// even with the disclosures open; a site whose title and robots.txt carry script payloads runs
// nothing. Screenshots are kept under test-artifacts/ (gitignored) to be looked at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openapiDocument } from '../../generated/openapi.ts';
import { archiveScan } from '../../src/storage/queries/archiveScan.ts';
import type { TestApp } from '../helpers/app.ts';
import { fullCatalog, fullReport } from '../report/fixtures.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, evidenceFor, fakeScanner } from '../scan-api/fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
/** A 768-px laptop screen less the browser's own toolbars (about 110 px). */
const GRID_MAX_PX = 658;

const PAYLOAD = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;
const ROBOTS_LINE = `Disallow: /"><script>window.__pwned=3</script>`;

/** Full-size reports for every domain, except hostile-site.com, whose text fields carry payloads. */
const scanner = () => {
  const s = fakeScanner({
    // Scanned now: the fixture's fixed date would close the 7-day attach window a week after it was written.
    make: (d) => (d !== 'hostile-site.com' ? { ...fullReport(d).report, scannedAt: new Date().toISOString() } : cannedReport(d, {
      reasons: [`robots.txt says ${ROBOTS_LINE} for GPTBot`, `The home page title is ${PAYLOAD}`],
      confidenceNote: `note ${PAYLOAD}`,
      checks: [{ id: 'robots-txt-present', category: 'discovery', weight: 2, status: 'fail', detail: ROBOTS_LINE }],
      matrix: [{
        ua: 'GPTBot', intent: 'training', robotsSays: 'blocked', edgeDoes: { networkA: 'block', networkB: 'block' }, httpStatus: { networkA: 403, networkB: 403 },
        verdict: 'blocked-consistent', measurement: 'measured', attributedVendors: [`Vendor${PAYLOAD}`], notes: [ROBOTS_LINE],
      }],
    })),
  });
  const scan = s.scan.bind(s);
  s.scan = async (domain, opts) => {
    const out = await scan(domain, opts);
    out.evidence = domain !== 'hostile-site.com'
      ? fullReport(domain).evidence
      : evidenceFor(domain).map((e) => ({ ...e, title: PAYLOAD, finalUrl: `javascript:window.__pwned=4//${PAYLOAD}`, curl: `curl '${PAYLOAD}'`, requestHeaders: { 'User-Agent': PAYLOAD } }));
    return out;
  };
  return s;
};

describe('report pages in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let fullId: string;
  before(async () => {
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '100/60' }, {
      scanner: scanner(),
      catalog: (id) => fullCatalog(id) ?? (id === 'robots-txt-present' ? { name: `robots.txt ${PAYLOAD}`, why: PAYLOAD, fix: PAYLOAD } : undefined),
    });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    // The full-size report, with the user's own network attached as the CLI would.
    const scan = await request(t.app).post('/scan').send({ domain: 'full-site.com', lead: { name: 'Ada', email: 'ada@full-site.com' } }).expect(200);
    fullId = scan.body.scanId;
    const { cliVantage } = fullReport('full-site.com');
    await request(t.app).post(`/r/${fullId}/cli-vantage`).send({ domain: 'full-site.com', uploadToken: scan.body.cliUploadToken, observations: cliVantage.observations }).expect(200);
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
  });

  async function open(url: string, viewport = LAPTOP): Promise<{ page: Page; problems: string[]; encoding: string | undefined }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
    const response = await page.goto(url, { waitUntil: 'load' });
    return { page, problems, encoding: (await response?.allHeaders())?.['content-encoding'] };
  }

  /** Every axe violation, whatever its impact. */
  async function violations(page: Page): Promise<string[]> {
    // Evaluated over the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`);
  }

  const sideways = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;
  const openAll = (page: Page) => page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`);

  test('browser: the full report on a laptop is axe-clean, its 33-agent grid fits one screen, and its screenshot is kept', async () => {
    const { page, problems, encoding } = await open(`${base}/r/${fullId}`);
    assert.equal(encoding, 'br', 'Chromium asks for br and gets the page brotli-compressed');
    assert.equal(await page.locator('h1').innerText(), 'full-site.com');
    assert.ok(await page.evaluate('document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length > 50'), 'the linked stylesheet applies (CSP, integrity)');
    assert.equal(await page.locator('table.agents tbody tr').count(), 33);
    assert.equal(await page.locator('table.agents thead th', { hasText: 'Yours' }).count(), 4, 'the user network column in each intent table');
    const grid = await page.locator('.groups').boundingBox();
    assert.ok(grid && grid.height <= GRID_MAX_PX, `agent grid is ${grid?.height} px tall (at most ${GRID_MAX_PX})`);
    assert.equal(await sideways(page), 0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-laptop.png'), fullPage: true });
    await page.locator('#agents').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-laptop-agents.png') });
    await openAll(page);
    await page.locator('#next-rubric').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-laptop-next-rubric.png') });
    assert.ok(await page.getByText(/^Next rubric: /).isVisible(), 'the next rubric beside the score');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: every Fix-first item, a partial pass included, reads in its wide column on a laptop and a phone', async () => {
    for (const viewport of [LAPTOP, PHONE]) {
      const { page, problems } = await open(`${base}/r/${fullId}`, viewport);
      // Each item is a grid: the points gained on the left, everything else in the column beside it.
      const items = (await page.locator('ol.fixes > li').evaluateAll((lis) => lis.map((li) => {
        const gain = li.querySelector('.gain')!.getBoundingClientRect();
        const rest = Array.from(li.children).filter((c) => !c.classList.contains('gain')).map((c) => ({ text: (c.textContent ?? '').slice(0, 40), left: c.getBoundingClientRect().left }));
        return { gainRight: gain.right, rest, partial: li.textContent!.includes('credit)') };
      }))) as { gainRight: number; rest: { text: string; left: number }[]; partial: boolean }[];
      assert.ok(items.length > 3 && items.some((i) => i.partial), 'the fixture has several fixes, one of them a partial pass');
      for (const item of items) {
        for (const part of item.rest) assert.ok(part.left > item.gainRight, `${viewport.width} px: "${part.text}" sits under the points (left ${part.left}, points end at ${item.gainRight})`);
      }
      if (viewport === PHONE) {
        await page.locator('#fix').evaluate((e) => e.scrollIntoView());
        await page.screenshot({ path: path.join(ARTIFACTS, 'report-phone-fix-first.png') });
      }
      assert.deepEqual(problems, []);
      await page.context().close();
    }
  });

  test('browser: the platform\'s fix reads first with its documentation link, the generic fix folded, and the robots.txt patch as a diff, on a phone and a desktop, axe-clean', async () => {
    for (const [viewport, name] of [[PHONE, 'phone'], [{ width: 1440, height: 900 }, 'desktop']] as const) {
      const { page, problems } = await open(`${base}/r/${fullId}`, viewport);
      const item = page.locator('ol.fixes > li', { has: page.locator('code', { hasText: /^access\.search-agents$/ }) });
      const platform = item.locator('.pfix').first();
      assert.match(await platform.innerText(), /^Fix on Cloudflare: AI Crawl Control/);
      assert.ok(await platform.getByRole('link', { name: /developers\.cloudflare\.com\/ai-crawl-control/ }).isVisible(), 'the documentation link is visible');
      const generic = item.locator('details', { has: page.locator('summary', { hasText: 'Generic fix' }) });
      assert.equal(await generic.evaluate((d) => (d as HTMLDetailsElement).open), false, 'the generic fix is folded');
      const top = async (l: typeof platform) => (await l.boundingBox())!.y;
      assert.ok(await top(platform) < await top(generic), 'the platform fix comes first');
      assert.equal(await sideways(page), 0, `${name}: no sideways scroll`);
      await item.evaluate((e) => e.scrollIntoView());
      await page.screenshot({ path: path.join(ARTIFACTS, `report-${name}-platform-fix.png`) });
      const diff = page.locator('#robots-patch ~ pre.udiff');
      assert.match(await diff.innerText(), /\+User-agent: ChatGPT-User/);
      await page.locator('#robots-patch').evaluate((e) => e.scrollIntoView());
      await page.screenshot({ path: path.join(ARTIFACTS, `report-${name}-robots-patch.png`) });
      await generic.locator('summary').click();
      assert.equal(await sideways(page), 0, `${name}: no sideways scroll with the generic fix open`);
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(problems, []);
      await page.context().close();
    }
  });

  test('browser: a verdict opens its notes and evidence links from the keyboard, and the linked probe opens', async () => {
    const { page, problems } = await open(`${base}/r/${fullId}`);
    const row = page.locator('table.agents tbody tr', { has: page.locator('th', { hasText: /^OAI-SearchBot$/ }) });
    await row.locator('summary').focus();
    await page.keyboard.press('Enter');
    const pop = row.locator('.pop');
    assert.ok(await pop.isVisible());
    assert.match(await pop.innerText(), /turned away/);
    await page.locator('#agents').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-laptop-verdict-open.png') });
    assert.deepEqual(await violations(page), []);
    await pop.getByRole('link', { name: 'Network A' }).click();
    const probe = page.locator('details.ev[open]');
    assert.equal(await probe.count(), 1, 'following the fragment opens the folded probe');
    assert.ok(await probe.locator('pre').filter({ hasText: 'curl -sS' }).isVisible());
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: on a 390-px phone the report never scrolls sideways, folded or unfolded, and is axe-clean', async () => {
    const { page, problems } = await open(`${base}/r/${fullId}`, PHONE);
    assert.equal(await sideways(page), 0, 'folded');
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-phone.png'), fullPage: true });
    await page.locator('#agents').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-phone-agents.png') });
    assert.deepEqual(await violations(page), []);
    await openAll(page);
    assert.equal(await sideways(page), 0, 'every disclosure open');
    await page.locator('#evidence').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-phone-evidence.png') });
    await page.locator('#next-rubric').evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-phone-next-rubric.png') });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: script payloads from the site title, robots.txt and evidence execute nothing', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'hostile-site.com', lead: { name: 'Ada', email: 'ada@hostile-site.com' } }).expect(200);
    const { page, problems } = await open(`${base}/r/${scan.body.scanId}`);
    await openAll(page);
    assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
    // The one script is our own (the watch form's), by src; none came from the site's text.
    assert.deepEqual(await page.locator('script').evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).getAttribute('src'))), ['/assets/watch-form.js']);
    assert.equal(await page.locator('img:not([src^="/badge/"]), img[onerror]').count(), 0, 'the only image is our own badge');
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.ok((await page.content()).includes('&lt;script&gt;window.__pwned=1&lt;/script&gt;'));
    assert.ok((await page.locator('body').innerText()).includes('<script>window.__pwned=1</script>'), 'shown as text');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: an MCP-server report opened in a browser is an axe-clean checklist that fits a phone', async () => {
    const example = (openapiDocument as unknown as { components: { examples: Record<string, { value: Record<string, unknown> }> } }).components.examples.McpServerReport!.value;
    const id = example.scanId as string;
    const { reportUrl: _drop, ...payload } = example;
    await archiveScan(t.ctx.db, {
      id, kind: 'mcp-server', domain: 'mcp.example.com', headline: 'open', score: null, report: JSON.stringify(payload),
      evidence: null, scanned_at: '2026-11-22T10:20:00.000Z', lead_name: 'Ada', lead_email: 'ada@example.com', lead_phone: null, lead_role: null, upload_token_hash: null,
    }, []);
    for (const [name, viewport] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
      const { page, problems } = await open(`${base}/r/${id}`, viewport);
      assert.equal(await page.locator('h1').innerText(), 'mcp.example.com');
      assert.ok(await page.getByRole('heading', { name: 'Checklist' }).isVisible());
      await openAll(page);
      assert.equal(await sideways(page), 0, name);
      await page.screenshot({ path: path.join(ARTIFACTS, `mcp-report-${name}.png`), fullPage: true });
      assert.deepEqual(await violations(page), [], name);
      assert.deepEqual(problems, [], name);
      await page.context().close();
    }
  });

  test('browser: the 404 page is helpful and axe-clean', async () => {
    const { page, problems } = await open(`${base}/r/00000000-0000-4000-8000-000000000000`);
    assert.match(await page.locator('h1').innerText(), /No report with this id/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-404.png') });
    assert.deepEqual(await violations(page), []);
    // Chromium logs the 404 status of the document itself as a console error; nothing else may appear.
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
    await page.context().close();
  });

  test('browser: a cut-short report link and a mistyped address are helpful, axe-clean pages, not JSON', async () => {
    for (const [url, heading, status, shot] of [
      [`${base}/r/${fullId.slice(0, 20)}`, /This report link is incomplete/, 400, 'report-cut-short.png'],
      [`${base}/reprot/${fullId}`, /There is no page here/, 404, 'no-such-page.png'],
    ] as const) {
      const { page, problems } = await open(url);
      assert.match(await page.locator('h1').innerText(), heading);
      assert.equal(await page.locator('a[href="/"]').count(), 1, 'a way back to the scan form');
      await page.screenshot({ path: path.join(ARTIFACTS, shot) });
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(problems.filter((p) => !p.includes(String(status))), []);
      await page.context().close();
    }
  });
});
