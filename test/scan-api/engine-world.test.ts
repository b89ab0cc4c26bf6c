// End to end with the real engine against the test world (two forward proxies, HTTPS sites
// signed by the test CA): POST /scan → archive → report page in Chromium. The world and the
// engine are part of the project, so a broken import fails this file rather than skipping it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import type { SiteScanner } from '../../src/scans/types.ts';
import { catalogLookup } from '../../src/scans/adapters.ts';
import { scanApiApp } from './api-app.ts';

const CHROMIUM = '/usr/bin/chromium';
const worldMod = await import('../world/index.ts');
const engineMod = await import('../../src/scanner/engine.ts');

const TITLE_PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const ROBOTS = 'User-agent: *\nDisallow: /"><script>window.__pwned=3</script>\nDisallow: /<img src=x onerror=window.__pwned=4>\n';

describe('POST /scan with the real engine against the test world', () => {
  let world: Awaited<ReturnType<typeof worldMod.startWorld>>;
  let t: TestApp;
  before(async () => {
    world = await worldMod.startWorld({
      handlers: {
        'xss-title': (req, res) => {
          if (req.url === '/robots.txt') {
            res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
          } else if (req.url === '/') {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(`<!doctype html><html><head><title>${TITLE_PAYLOAD}</title></head><body><main>${'<p>Plain words for people and agents alike. </p>'.repeat(40)}</main></body></html>`);
          } else {
            res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          }
        },
      },
    });
    const { networkA, networkB } = world.egress();
    const scanner: SiteScanner = engineMod.createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 });
    const { buildCatalog } = await import('../../src/scanner/catalog.ts');
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '100/60' }, {
      scanner, catalog: catalogLookup(buildCatalog()), resolve: (host) => resolveHost(host, world.resolveOverrides, 2000),
    });
  });
  after(async () => {
    await t?.close();
    await world?.stop();
  });

  test('engine: an open world site scans to a conforming, archived report', async () => {
    const res = await request(t.app).post('/scan').send({ domain: world.domain('open-basic'), lead: { name: 'Ada', email: 'ada@world-fixtures.com' } }).expect(200).expect(conforms);
    assert.equal(res.body.headline, 'open');
    assert.ok(res.body.reportUrl);
    assert.ok(res.body.cliUploadToken);
    const page = await request(t.app).get(`/r/${res.body.scanId}`).expect(200).expect(conforms);
    assert.match(page.text, /Why it matters and how to fix it/);
    // The next rubric travels with the report: in the response, in the archive and on the page.
    assert.equal(res.body.preview?.rubricVersion, 'rubric-v1.3-preview');
    const archived = await request(t.app).get(`/r/${res.body.scanId}`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.deepEqual(archived.body.preview, res.body.preview);
    assert.match(page.text, /Next rubric: <strong>\d+\/100<\/strong>/);
  });

  test('engine: a site whose title and robots.txt carry script payloads executes nothing in Chromium', { skip: fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing` }, async () => {
    const res = await request(t.app).post('/scan').send({ domain: world.domain('xss-title'), lead: { name: 'Ada', email: 'ada@world-fixtures.com' } }).expect(200).expect(conforms);
    const { chromium } = await import('playwright-core');
    const server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('dialog', (d) => { problems.push(`dialog ${d.message()}`); void d.dismiss(); });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/r/${res.body.scanId}`);
      await page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`); // every fold, nested ones too
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
      assert.equal(await page.locator('script:not([src="/assets/watch-form.js"]), iframe, img:not([src^="/badge/"]), img[onerror]').count(), 0, 'no markup from the site; the only image is our own badge');
      assert.deepEqual(problems, []);
      const text = await page.locator('body').innerText();
      assert.ok(text.includes('window.__pwned'), 'the payload is shown as text somewhere (title or robots line)');
      fs.mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: 'test-artifacts/report-page-world-xss.png', fullPage: true });
    } finally {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
