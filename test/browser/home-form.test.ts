// The front door in a real browser (Debian's Chromium through playwright-core), with
// JavaScript off as a visitor without it would have: the form posts and lands on the report
// permalink; each error page (400, 403, 429) says what to fix, why not or when to retry; axe-core
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
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

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

async function stop(server: http.Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

describe('the scan form in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let busy: TestApp;
  let main: { server: http.Server; base: string };
  let limited: { server: http.Server; base: string };
  let browser: Browser;
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_IP: '100/60', EXCLUDED_DOMAINS: 'optout-browser.com' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    busy = await testApp({ RATE_LIMIT_PER_IP: '1/1800' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
    main = await serve(t);
    limited = await serve(busy);
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
    await t?.close();
    await busy?.close();
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
