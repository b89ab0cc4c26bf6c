// The front door in a real browser (Debian's Chromium through playwright-core), with
// JavaScript off as a visitor without it would have: the form posts and lands on the report
// permalink; with JavaScript on, the page shows the scan's phases while the POST runs, then
// lands on the same permalink; each error page (400, 403, 429) says what to fix, why not or when to retry; axe-core
// finds no violations; a 390-px phone never scrolls sideways; the form works from the keyboard
// alone. Screenshots are kept under test-artifacts/ (gitignored).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner, steppedScanner, type SteppedScanner } from '../scan-api/fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

async function serve(t: TestApp): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Waits for a condition (never a fixed sleep), failing after a generous ceiling. */
async function until(done: () => boolean, what: string, ceilingMs = 30_000): Promise<void> {
  const stop = Date.now() + ceilingMs;
  while (!done()) {
    if (Date.now() > stop) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stop(server: http.Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

describe('the scan form in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let busy: TestApp;
  let slow: TestApp;
  let stepped: SteppedScanner;
  // One scan at a time and a loop that reads as saturated: a second scan waits for room.
  let crowdedApp: TestApp;
  let crowdedScanner: SteppedScanner;
  let crowded: { server: http.Server; base: string };
  let main: { server: http.Server; base: string };
  let limited: { server: http.Server; base: string };
  let held: { server: http.Server; base: string };
  let browser: Browser;
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_IP: '100/60', EXCLUDED_DOMAINS: 'optout-browser.com' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    busy = await testApp({ RATE_LIMIT_PER_IP: '1/1800' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    stepped = steppedScanner();
    slow = await testApp({ RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: stepped, scans: { resolve: fakeResolver() } });
    crowdedScanner = steppedScanner();
    crowdedApp = await testApp({ RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: crowdedScanner, scans: { resolve: fakeResolver(), admission: { min: 1, max: 1, intervalMs: 0, utilization: () => 1 } } });
    crowded = await serve(crowdedApp);
    main = await serve(t);
    limited = await serve(busy);
    held = await serve(slow);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await stop(main?.server);
    await stop(limited?.server);
    await stop(held?.server);
    await stop(crowded?.server);
    await crowdedApp?.close();
    await t?.close();
    await busy?.close();
    await slow?.close();
  });

  // javaScript: false is how a visitor without JavaScript sees the page; axe needs it on (the
  // page itself carries no executable script either way, so what axe sees is the same page).
  async function open(url: string, viewport = LAPTOP, javaScript = false): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems };
  }

  async function violations(page: Page): Promise<string[]> {
    // Evaluated over the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: unknown[] }[] };
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length}`);
  }

  async function overflow(page: Page): Promise<number> {
    return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
  }

  async function fill(page: Page, fields: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(fields)) await page.locator(`[name="${name}"]`).fill(value);
  }

  // The error statuses of the document itself show up as console errors; nothing else may.
  const real = (problems: string[]) => problems.filter((p) => !/status of (400|403|429)/.test(p));

  test('browser: GET / shows the form, has no axe violations and a screenshot', async () => {
    const { page, problems } = await open(`${main.base}/`, LAPTOP, true);
    assert.equal(await page.locator('h1').innerText(), 'Is your site ready for AI agents?');
    assert.equal(await page.locator('form[method="post"] input[name="domain"]').count(), 1);
    assert.ok(await page.evaluate('document.styleSheets.length === 2 && document.styleSheets[0].cssRules.length > 50'), 'the linked stylesheet applies (CSP, integrity), then the inline one');
    await page.screenshot({ path: path.join(ARTIFACTS, 'home.png'), fullPage: true });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: the form posted without JavaScript lands on the report permalink', async () => {
    const { page, problems } = await open(`${main.base}/`);
    await fill(page, { domain: 'https://www.browser-form.com/pricing', name: 'Ada Lovelace', email: 'ada@browser-form.com', role: 'site owner' });
    await Promise.all([page.waitForURL(/\/r\/[0-9a-f-]{36}$/), page.locator('button[type="submit"]').click()]);
    assert.equal(await page.locator('h1').innerText(), 'browser-form.com');
    await page.screenshot({ path: path.join(ARTIFACTS, 'home-to-report.png'), fullPage: false });
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  // While the form's POST is pending, Chromium's DevTools answer no evaluation or locator in
  // the page (they wait for the navigation), though the page itself runs and paints. So this
  // test mirrors the progress list into document.title, which the browser side reports
  // (Target.getTargetInfo), and screenshots through the browser side too.
  test('browser: with JavaScript on, the page shows the scan\'s progress while it runs, then lands on the report', async () => {
    const { page, problems } = await open(`${held.base}/`, LAPTOP, true);
    assert.equal(await page.locator('#progress').isVisible(), false, 'no progress before a scan');
    await fill(page, { domain: 'progress-browser.com', name: 'Ada Lovelace', email: 'ada@browser-form.com' });
    const cdp = await page.context().newCDPSession(page);
    await page.evaluate(`setInterval(() => {
      const s = document.getElementById('progress');
      document.title = 'progress:' + (s.hidden ? 'hidden' : 'shown') + '|' + [...s.querySelectorAll('li')].map((li) => li.textContent).join('|') + '|note:' + document.getElementById('progress-note').textContent;
    }, 50)`);
    const title = async () => ((await cdp.send('Target.getTargetInfo', {})) as { targetInfo: { title: string } }).targetInfo.title;
    // The POST is held while the scan is: the click must not wait for the navigation it starts.
    await page.locator('button[type="submit"]').click({ noWaitAfter: true });
    // The scan holds after robots.txt and one grid request: the page must show exactly that.
    const stop = Date.now() + 30_000;
    let seen = await title();
    while (!seen.includes('networkA: running (1 of 3)') || !seen.includes('robots.txt: done')) {
      assert.ok(Date.now() < stop, `the page never showed the held scan's progress; last title: ${seen}`);
      await new Promise((r) => setTimeout(r, 50));
      seen = await title();
    }
    const [, shown, ...rest] = seen.split(/progress:|\|/);
    assert.equal(shown, 'shown');
    const items = rest.filter((r) => !r.startsWith('note:'));
    assert.deepEqual(items.map((i) => i.replace(/:.*/, '')), [
      'Reading robots.txt', 'Your home page as each agent, from networkA', 'Your home page as each agent, from networkB',
      'Well-known files (llms.txt, sitemap, API and MCP documents)', 'Following up what they point to', 'Scoring',
    ]);
    assert.match(items[0]!, /done \(2 of 2\)/);
    assert.match(items[4]!, /waiting/, 'follow-ups have not started');
    assert.match(seen, /note:Reading robots\.txt: done\./, 'the live note says what finished');
    assert.equal(stepped.calls.length, 1, 'one scan, through POST /');
    const shot = (await cdp.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
    fs.writeFileSync(path.join(ARTIFACTS, 'home-progress.png'), Buffer.from(shot.data, 'base64'));
    await Promise.all([page.waitForURL(/\/r\/[0-9a-f-]{36}$/, { timeout: 60_000 }), stepped.release()]);
    assert.equal(await page.locator('h1').innerText(), 'progress-browser.com');
    assert.equal(stepped.calls.length, 1, 'still one scan');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  // The same list held still for axe: the test keeps the browser from posting (its own submit
  // listener runs after the page's), then posts the form itself with the progressId the page chose.
  test('browser: the progress list is axe-clean, says each phase in words and ends with the report on its way', async () => {
    const { page, problems } = await open(`${held.base}/`, PHONE, true);
    await fill(page, { domain: 'progress-axe.com', name: 'Ada Lovelace', email: 'ada@browser-form.com' });
    await page.evaluate(`document.getElementById('scan-form').addEventListener('submit', (e) => e.preventDefault())`);
    await page.locator('button[type="submit"]').click();
    await page.locator('#progress').waitFor({ state: 'visible' });
    const progressId = await page.locator('input[name="progressId"]').inputValue();
    assert.match(progressId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await until(() => slow.services.progress.streams(progressId) === 1, 'the page to open its stream');
    const posted = fetch(`${held.base}/`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domain: 'progress-axe.com', name: 'Ada Lovelace', email: 'ada@browser-form.com', progressId }).toString(),
    });
    await page.locator('#progress li[data-phase="grid-networkA"]', { hasText: 'running (1 of 3)' }).waitFor();
    assert.equal(await page.locator('#progress-note').getAttribute('role'), 'status');
    assert.ok((await overflow(page)) <= 0, `page scrolls sideways by ${await overflow(page)}px`);
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(ARTIFACTS, 'home-progress-phone.png'), fullPage: true });
    stepped.release();
    assert.equal((await posted).status, 303);
    await page.locator('#progress li[data-phase="scoring"][data-status="done"]').waitFor();
    assert.match(await page.locator('#progress-note').innerText(), /Done: opening the report\./);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: a scan that waits for room says so above its phases, then runs and lands on the report', async () => {
    const post = (domain: string, progressId?: string) => fetch(`${crowded.base}/`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domain, name: 'Ada Lovelace', email: 'ada@browser-form.com', ...(progressId ? { progressId } : {}) }).toString(),
    });
    const first = post('first-in-line.com');
    await until(() => crowdedScanner.calls.length === 1, 'the first scan to take the only place');
    const { page, problems } = await open(`${crowded.base}/`, LAPTOP, true);
    await fill(page, { domain: 'waits-for-room.com', name: 'Ada Lovelace', email: 'ada@browser-form.com' });
    await page.evaluate(`document.getElementById('scan-form').addEventListener('submit', (e) => e.preventDefault())`);
    await page.locator('button[type="submit"]').click();
    const progressId = await page.locator('input[name="progressId"]').inputValue();
    await until(() => crowdedApp.services.progress.streams(progressId) === 1, 'the page to open its stream');
    const posted = post('waits-for-room.com', progressId);
    const waiting = page.locator('#progress li[data-phase="queued"][data-status="running"]');
    await waiting.waitFor();
    assert.match(await waiting.innerText(), /Waiting for room: the service is busy with other scans: running/);
    assert.match(await page.locator('#progress-note').innerText(), /Waiting for room/);
    assert.deepEqual(crowdedScanner.calls, ['first-in-line.com'], 'the second scan has not started');
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(ARTIFACTS, 'home-progress-queued.png'), fullPage: false });
    crowdedScanner.release(); // the first scan ends; the second is let in and holds in its turn
    assert.equal((await first).status, 303);
    await page.locator('#progress li[data-phase="queued"][data-status="done"]').waitFor();
    await page.locator('#progress li[data-phase="grid-networkA"]').waitFor();
    const phases = await page.locator('#progress li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-phase')));
    assert.equal(phases[0], 'queued', `waiting is listed first: ${phases.join()}`);
    crowdedScanner.release();
    assert.equal((await posted).status, 303);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('browser: the keyboard alone fills the form and submits it with Enter', async () => {
    const { page } = await open(`${main.base}/`);
    const focused = () => page.evaluate('document.activeElement && document.activeElement.getAttribute("name")') as Promise<string | null>;
    const order: (string | null)[] = [];
    for (let i = 0; i < 30 && (await focused()) !== 'domain'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'domain', 'Tab reaches the domain field');
    await page.keyboard.type('keyboard-form.com');
    for (const value of ['Grace Hopper', 'grace@keyboard-form.com']) {
      await page.keyboard.press('Tab');
      order.push(await focused());
      await page.keyboard.type(value);
    }
    assert.deepEqual(order, ['name', 'email'], 'Tab moves through the fields in reading order');
    await Promise.all([page.waitForURL(/\/r\/[0-9a-f-]{36}$/), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').innerText(), 'keyboard-form.com');
    await page.context().close();
  });

  test('browser: a 390-px phone shows the form without horizontal scroll', async () => {
    const { page } = await open(`${main.base}/`, PHONE);
    assert.ok((await overflow(page)) <= 0, `page scrolls sideways by ${await overflow(page)}px`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'home-phone.png'), fullPage: true });
    await page.context().close();
  });

  const errorCases = [
    { status: 400, file: 'home-400', base: () => main.base, domain: '10.0.0.1', title: 'Please check the form', before: async () => {} },
    { status: 403, file: 'home-403', base: () => main.base, domain: 'optout-browser.com', title: 'This scan cannot run', before: async () => {} },
    {
      status: 429, file: 'home-429', base: () => limited.base, domain: 'second.browser-form.com', title: 'Too many scans for now',
      // The address's one scan is spent first, through the same form.
      before: async () => {
        const { page } = await open(`${limited.base}/`);
        await fill(page, { domain: 'first.browser-form.com', name: 'Ada Lovelace', email: 'ada@browser-form.com' });
        await Promise.all([page.waitForURL(/\/r\//), page.locator('button[type="submit"]').click()]);
        await page.context().close();
      },
    },
  ];
  for (const c of errorCases) {
    test(`browser: the ${c.status} page says what happened, keeps the form, is axe-clean and fits a phone`, async () => {
      await c.before();
      for (const viewport of [LAPTOP, PHONE]) {
        const { page, problems } = await open(`${c.base()}/`, viewport, true);
        await fill(page, { domain: c.domain, name: 'Ada Lovelace', email: 'ada@browser-form.com' });
        const [response] = await Promise.all([page.waitForNavigation(), page.locator('button[type="submit"]').click()]);
        assert.equal(response?.status(), c.status);
        const alert = page.locator('[role="alert"]');
        assert.match(await alert.innerText(), new RegExp(c.title));
        if (c.status === 429) assert.match(await alert.innerText(), /try again in \d+/);
        assert.equal(await page.locator('input[name="domain"]').inputValue(), c.domain, 'what was typed is kept');
        assert.ok((await overflow(page)) <= 0, `page scrolls sideways by ${await overflow(page)}px`);
        await page.screenshot({ path: path.join(ARTIFACTS, `${c.file}${viewport === PHONE ? '-phone' : ''}.png`), fullPage: true });
        assert.deepEqual(await violations(page), []);
        assert.deepEqual(real(problems), []);
        await page.context().close();
      }
    });
  }
});
