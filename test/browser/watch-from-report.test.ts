// Watching a site from its report in a real browser (Debian's Chromium through playwright-core),
// with JavaScript off and on: the report's "Watch this site" form, the confirmation mail (a
// real SMTP server), its link and button, the manage page it leads to, and from that page a
// test event and a redelivery (same event id) to a real HTTPS receiver of the test world,
// through networkA's proxy. axe-core finds no violation; screenshots go to test-artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { resolveHost } from '../../src/net/resolve.ts';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { SmtpSink } from '../scan-api/smtp-sink.ts';
import { startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';

const sites = fakeResolver();
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING watch-from-report browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const stop = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > stop) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('watch from a report in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let world: World;
  const receiver = webhookReceiver();
  const sink = new SmtpSink();
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler } });
    await sink.start(await SmtpSink.freePort());
    t = await testApp({ LOG_LEVEL: 'silent', SMTP_URL: `smtp://127.0.0.1:${sink.port}`, RATE_LIMIT_PER_IP: '100/60', WEBHOOK_BACKOFF_MS: '200' }, {}, {
      scanner: fakeScanner(), mailer: true, webhookEgress: world.egress().networkA,
      // The hook's host through the world's names; the reported sites (a fake engine scans them) anywhere public.
      scans: { resolve: (host) => (host === world.domain('hooks') ? resolveHost(host, world.resolveOverrides, 2000) : sites(host)) },
    });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchHeadless();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    receiver.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
    await sink.stop();
    await world?.stop();
  });

  async function report(domain: string): Promise<string> {
    const res = await request(t.app).post('/scan').send({ domain, lead: { name: 'Owner', email: 'owner@watch-browser.com' } }).expect(200);
    return `${base}/r/${res.body.scanId}`;
  }

  /** Screenshot, no sideways scroll, and axe-core, which needs script: a page of a JS-off context is checked again in a JS-on one. */
  async function axe(page: Page, shot: string): Promise<void> {
    await page.screenshot({ path: path.join(ARTIFACTS, `${shot}.png`), fullPage: true });
    const scripted = await browser.newContext({ viewport: page.viewportSize()! });
    try {
      const again = await scripted.newPage();
      await again.goto(page.url(), { waitUntil: 'load' });
      await check(again, shot);
    } finally {
      await scripted.close();
    }
  }

  async function check(page: Page, shot: string): Promise<void> {
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, `${shot}: no sideways scroll`);
    await page.evaluate(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8'));
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
    assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`), [], shot);
  }

  /** The confirmation mail's link, as the mailbox got it over SMTP, on this test's listener. */
  async function confirmLink(to: string): Promise<string> {
    const raw = await until(`the confirmation mail to ${to}`, async () => sink.received.find((m) => m.to.includes(to))?.raw);
    const text = (await simpleParser(raw)).text ?? '';
    const link = new URL(/https?:\/\/\S+\/watches\/[0-9a-f-]{36}\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(text)![0]);
    return `${base}${link.pathname}${link.search}`;
  }

  /**
   * From the confirmation mail to the manage page's buttons, the same with JavaScript on or off
   * (the pages run no script): confirm, open the manage page, send a test event, redeliver it
   * (same event id and bytes), and be refused a second redelivery within the minute.
   */
  async function confirmAndManage(page: Page, email: string, domain: string, hookPath: string, shot: string): Promise<void> {
    await page.goto(await confirmLink(email), { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Start watching' }).click();
    // The button posts to the same address: wait for the page it answers, not for a new URL.
    await page.getByRole('heading', { name: `Watching ${domain}` }).waitFor();
    assert.match(await page.locator('body').innerText(), /whsec_[A-Za-z0-9_-]{43}/, 'the webhook secret, for the mailbox that confirmed');
    await axe(page, `watch-form-confirmed-${shot}`);
    await page.getByRole('link', { name: 'Manage this watch' }).click();
    await page.getByRole('heading', { name: `Watch of ${domain}` }).waitFor();
    assert.match(await page.locator('dl').innerText(), /active/);

    await Promise.all([page.waitForURL(/done=test-queued/), page.getByRole('button', { name: 'Send a test event' }).click()]);
    assert.ok(await page.getByRole('status').filter({ hasText: 'A test event is on its way' }).isVisible());
    const [first] = await receiver.until(hookPath, 1);
    assert.equal(first!.headers['agentreadiness-event-type'] ?? JSON.parse(first!.body.toString()).type, 'readiness.test');
    const eventId = String(first!.headers['agentreadiness-event-id']);
    // The page shows the delivery once it is recorded; then its Redeliver button sends it again.
    await until('the delivery shown as delivered', async () => {
      await page.reload({ waitUntil: 'load' });
      return (await page.locator('tbody tr', { hasText: eventId }).innerText()).includes('delivered') || undefined;
    });
    await axe(page, `watch-manage-delivered-${shot}`);
    await Promise.all([page.waitForURL(/done=redelivered/), page.getByRole('button', { name: `Redeliver ${eventId}` }).click()]);
    assert.ok(await page.getByRole('status').filter({ hasText: 'on its way again' }).isVisible());
    const got = await receiver.until(hookPath, 2);
    assert.equal(got[1]!.headers['agentreadiness-event-id'], eventId, 'the same event id');
    assert.ok(got[1]!.body.equals(got[0]!.body), 'the same bytes');
    // While the redelivery is on its way the row has no button; once it is delivered again, a second ask within the minute is refused.
    await until('the redelivery shown as delivered', async () => {
      await page.reload({ waitUntil: 'load' });
      return (await page.locator('tbody tr', { hasText: eventId }).innerText()).includes('sent again 1×') && await page.getByRole('button', { name: `Redeliver ${eventId}` }).count() === 1 ? true : undefined;
    });
    await Promise.all([page.waitForURL(/done=redeliver-too-soon/), page.getByRole('button', { name: `Redeliver ${eventId}` }).click()]);
    await page.screenshot({ path: path.join(ARTIFACTS, `watch-manage-too-soon-${shot}.png`), fullPage: true });
    assert.equal(receiver.received(hookPath).length, 2, 'nothing more went out');
  }

  test('JS off: the form posts, "check your mail"; the mail\'s link and button confirm; the manage page sends a test event and redelivers it (same event id), each a 303 back with a notice', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const hook = `https://${world.domain('hooks')}/js-off`;
    await page.goto(await report('shop.watch-browser.com'), { waitUntil: 'load' });
    await page.getByLabel('Your name').fill('Ada <b>Lovelace</b>');
    await page.getByLabel('Email for the alerts').fill('ada@watch-browser.com');
    await page.getByLabel('Webhook URL (optional, https)').fill(hook);
    await axe(page, 'watch-form-report-phone');
    await Promise.all([page.waitForURL(/\/watch$/), page.getByRole('button', { name: 'Watch this site' }).click()]);
    assert.ok(await page.getByRole('heading', { name: 'Check your mail' }).isVisible());
    await page.screenshot({ path: path.join(ARTIFACTS, 'watch-form-check-mail-phone.png'), fullPage: true });

    await confirmAndManage(page, 'ada@watch-browser.com', 'shop.watch-browser.com', '/js-off', 'phone');
    await context.close();
  });

  test('JS on: the form is sent inline (no page change) and says to check the mail, a refusal is said in place; then the same confirmation and manage-page buttons', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error' && !/40\d/.test(m.text())) problems.push(`console: ${m.text()}`); });
    const url = await report('inline.watch-browser.com');
    await page.goto(url, { waitUntil: 'load' });
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Email for the alerts').fill('not-an-email');
    // The browser's own check would stop a bad address; a server refusal is shown in place too.
    await page.locator('#watch-email').evaluate((el) => el.setAttribute('type', 'text'));
    await page.getByRole('button', { name: 'Watch this site' }).click();
    await until('the refusal in place', async () => ((await page.locator('[data-watch-status]').innerText()).length > 10 ? true : undefined));
    assert.equal(page.url(), url, 'no page change');
    assert.doesNotMatch(await page.locator('[data-watch-status]').innerText(), /Check your mail/);
    await page.getByLabel('Email for the alerts').fill('grace@watch-browser.com');
    await page.getByLabel('Webhook URL (optional, https)').fill(`https://${world.domain('hooks')}/js-on`);
    await page.getByRole('button', { name: 'Watch this site' }).click();
    await until('the note in place', async () => ((await page.locator('[data-watch-status]').innerText()).startsWith('Check your mail') ? true : undefined));
    assert.equal(page.url(), url);
    await page.locator('#watch').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'watch-form-inline-laptop.png') });
    await confirmAndManage(page, 'grace@watch-browser.com', 'inline.watch-browser.com', '/js-on', 'laptop');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
