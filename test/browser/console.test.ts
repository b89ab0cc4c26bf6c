// The partner console in a real browser (Debian's Chromium through playwright-core): a partner
// signs in with the key once, sees their batches (status, progress, capability links) and watches
// (last run, last change, failing deliveries) and the budget left, pages each list, and the key
// is sent only as the bearer header (never in a URL or a cookie). A key revoked while signed in
// is refused on the next request: the page says so and forgets the key. Labels and domains
// carrying markup show as text and run nothing. axe-core finds no violation on a laptop and a
// phone, and the phone never scrolls sideways. Screenshots go to test-artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchHeadless } from '../helpers/chromium.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, fakeScanner } from '../scan-api/fixtures.ts';
import { insertWatch } from '../../src/storage/queries/watches.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const AXE = path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPING browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const LABEL = 'Q4 "><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const DOMAIN = '<img src=x onerror="window.__pwned=3">.console-site.com';

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }[] };
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ×${v.nodes.length} e.g. ${v.nodes[0]?.target.join(' ')}`);
}

describe('the partner console in a real browser', { skip: haveChromium ? false : `${CHROMIUM} is missing` }, () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  before(async () => {
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '4' }, { scanner: fakeScanner({ make: (d) => cannedReport(d, { headline: 'agent-hostile' }) }) });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchHeadless();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close() && r() : r()));
    await t?.close();
  });

  /** A key with `batches` batches of two domains (the first labelled with markup) and three watches (one failing its deliveries). */
  async function partner(name: string, batches: number): Promise<{ key: string; keyId: string }> {
    const k = await t.services.keys.create(name, 500);
    for (let i = 0; i < batches; i++) {
      const res = await fetch(`${base}/batches`, {
        method: 'POST', headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ domains: [`a${i}.console-site.com`, `b${i}.console-site.com`], label: i === 0 ? LABEL : `Portfolio ${i}` }),
      });
      assert.equal(res.status, 202, await res.text());
    }
    const at = (d: number) => new Date(Date.UTC(2026, 10, d)).toISOString();
    for (const [i, domain] of [DOMAIN, 'shop.console-site.com', 'blog.console-site.com'].entries()) {
      const id = randomUUID();
      await insertWatch(t.ctx.db, {
        id, domain, lead_name: 'Ada', lead_email: 'ada@example.com', lead_phone: null, lead_role: null, every: 'day', notify_email: true, webhook_url: 'https://hooks.console-site.com/in',
        secret_version: 1, threshold: 10, status: 'active', key_id: k.keyId, created_at: at(i + 1), confirmed_at: at(i + 1), ended_at: null, ended_by: null,
      });
      if (i === 0) {
        await t.ctx.db('watch_runs').insert({ watch_id: id, period: 1, state: 'done', charged: true, scan_id: randomUUID(), headline: 'agent-hostile', score: 21, changes: '[{"kind":"headline","text":"open to agent-hostile"}]', started_at: at(20), finished_at: at(20) });
        await t.ctx.db('webhook_deliveries').insert({ id: randomUUID(), watch_id: id, event_id: randomUUID(), type: 'readiness.changed', url: 'https://hooks.console-site.com/in', secret_version: 1, body: '{}', status: 'failed', attempts: 8, created_at: at(20) });
      }
    }
    return k;
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    await page.getByLabel('Partner API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed in as' }).waitFor();
  }

  for (const [name, viewport] of [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]] as const) {
    test(`browser: on a ${name}, the console lists the key's batches and watches and its budget, pages, sends the key only as a header; axe-clean; screenshot kept`, async () => {
      const { key } = await partner(`Console ${name}`, 23);
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const problems: string[] = [];
      const urls: string[] = [];
      const auths: string[] = [];
      page.on('request', (r) => { urls.push(r.url()); const a = r.headers().authorization; if (a) auths.push(`${new URL(r.url()).pathname} ${a === `Bearer ${key}` ? 'key' : 'other'}`); });
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
      await page.goto(`${base}/console`, { waitUntil: 'load' });
      assert.deepEqual(await axeViolations(page), [], 'the sign-in form is axe-clean');
      await page.screenshot({ path: path.join(ARTIFACTS, `console-signin-${name}.png`), fullPage: true });
      await signIn(page, key);
      assert.equal(await page.locator('#key-left').textContent(), String(500 - 46), '23 batches of two spent 46 scans');
      assert.equal(await page.locator('#key-name').textContent(), `Console ${name}`);
      assert.equal(await page.locator('#batches > li').count(), 20, 'a first page of 20');
      await page.getByRole('button', { name: 'More batches' }).click();
      await page.waitForFunction(() => document.querySelectorAll('#batches > li').length === 23);
      assert.ok(await page.getByRole('button', { name: 'More batches' }).isHidden(), 'no more after the last page');
      assert.equal(await page.locator('#batches > li').filter({ hasText: LABEL }).count(), 1, 'the label shows as text');
      assert.equal(await page.getByRole('link', { name: 'summary page' }).count(), 23);
      const summaryHref = await page.getByRole('link', { name: 'summary page' }).first().getAttribute('href');
      assert.match(summaryHref ?? '', /\/batches\/[0-9a-f-]{36}\/shared\//, 'the capability link is listed');
      assert.equal(await page.locator('#watches > li').count(), 3);
      const hostile = page.locator('#watches > li').filter({ hasText: DOMAIN });
      assert.equal(await hostile.count(), 1, 'the domain shows as text');
      assert.match(await hostile.innerText(), /Failing deliveries\s*1/);
      assert.match(await hostile.innerText(), /done, agent-hostile, score 21/);
      assert.match(await hostile.innerText(), /Last change\s*2026-11-20 00:00:00 UTC/);
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
      assert.equal(await page.locator('main img, main script').count(), 0);
      assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
      await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate('sessionStorage.length'), 1, 'the key is kept for the session');
      assert.equal(await page.evaluate('localStorage.length'), 0);
      assert.deepEqual(await context.cookies(), [], 'no cookie');
      assert.ok(urls.every((u) => !u.includes(key)), 'the key is in no URL');
      assert.deepEqual([...new Set(auths)].sort(), ['/batches key', '/keys/me key', '/watches key']);
      // The same tab reloaded stays signed in (session storage), without asking again.
      await page.reload({ waitUntil: 'load' });
      await page.getByRole('status').filter({ hasText: 'Signed in as' }).waitFor();
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test('browser: a key revoked while signed in is refused on the next request; the page says so and forgets the key; screenshot kept', async () => {
    const { key, keyId } = await partner('Console Revoked', 2);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, key);
    assert.equal(await page.locator('#batches > li').count(), 2);
    assert.equal(await t.services.keys.revoke(keyId), true);
    await page.reload({ waitUntil: 'load' });
    await page.getByRole('status').filter({ hasText: 'has been revoked' }).waitFor();
    assert.match(await page.getByRole('status').innerText(), /This API key has been revoked\. The key has been forgotten/);
    assert.equal(await page.evaluate('sessionStorage.length'), 0, 'the key is forgotten');
    assert.ok(await page.getByLabel('Partner API key').isVisible(), 'the sign-in form is back');
    assert.ok(await page.locator('#signed').isHidden(), 'nothing of the key stays on screen');
    assert.equal(await page.locator('#batches > li').count(), 0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-revoked-phone.png'), fullPage: true });
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  test('browser: with JavaScript off the console says plainly that it needs it (the key goes only in a header, which a plain page cannot send) and names the API lists instead; screenshot kept', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`${base}/console`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200);
    const text = await page.locator('body').innerText();
    assert.match(text, /This page needs JavaScript/);
    assert.match(text, /GET \/batches/);
    assert.equal((await context.cookies()).length, 0, 'no cookie');
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-no-js-phone.png'), fullPage: true });
    await context.close();
  });
});
