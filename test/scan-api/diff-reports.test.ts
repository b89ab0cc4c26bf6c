// GET /r/{scanId}/diff/{otherScanId} end to end: two real scans of one world site, whose edge
// starts blocking GPTBot and whose robots.txt gains a group between them, compared as JSON and
// as a page; and every refusal (different domains, an MCP-server report, a malformed or unknown id).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import type { SiteScanner } from '../../src/scans/types.ts';
import { catalogLookup } from '../../src/scans/adapters.ts';
import { archiveScan } from '../../src/storage/queries/archiveScan.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { startWorld, type World } from '../world/index.ts';
import { BLOCK_GPTBOT } from '../world/scenarios/watches.ts';
import { scanApiApp } from './api-app.ts';
import { reportFor } from '../storage/reports.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@world-fixtures.com' };
const NEW_ROBOTS = 'User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n\nSitemap: https://{domain}/sitemap.xml\n';

describe('diffReports against the test world', () => {
  let world: World;
  let t: TestApp;
  let first: string;
  let second: string;
  let other: string;
  before(async () => {
    world = await startWorld();
    const { networkA, networkB } = world.egress();
    const scanner: SiteScanner = createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 });
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '100/60', RATE_LIMIT_PER_DOMAIN: '10/60' }, {
      scanner, catalog: catalogLookup(buildCatalog()), resolve: (host) => resolveHost(host, world.resolveOverrides, 2000),
    });
    const scan = async (label: string) => (await request(t.app).post('/scan').send({ domain: world.domain(label), lead, fresh: true }).expect(200)).body.scanId as string;
    first = await scan('watched-shop');
    world.update('watched-shop', { edge: BLOCK_GPTBOT, robots: NEW_ROBOTS });
    second = await scan('watched-shop');
    world.reset('watched-shop');
    other = await scan('open-basic');
  });
  after(async () => {
    await t?.close();
    await world?.stop();
  });

  test('JSON: the GPTBot cells on both networks, the headline, robots.txt as a unified diff', async () => {
    const res = await request(t.app).get(`/r/${first}/diff/${second}`).set('Accept', 'application/json').expect(200).expect(conforms);
    const d = res.body;
    assert.equal(d.domain, world.domain('watched-shop'));
    assert.equal(d.from.scanId, first);
    assert.equal(d.to.scanId, second);
    assert.equal(d.headline.before, 'open');
    assert.notEqual(d.headline.after, 'open');
    assert.equal(d.headline.changed, true);
    const gpt = d.cells.filter((c: { agent: string }) => c.agent === 'GPTBot');
    assert.deepEqual(gpt.map((c: { network: string; edge: unknown }) => [c.network, c.edge]), [
      ['networkA', { before: 'pass', after: 'block' }],
      ['networkB', { before: 'pass', after: 'block' }],
    ]);
    assert.deepEqual(gpt[0].robotsSays, { before: 'allowed', after: 'partial' });
    assert.ok(d.cells.every((c: { agent: string }) => c.agent === 'GPTBot'), 'no other agent changed');
    assert.equal(d.robotsTxt.changed, true);
    assert.equal(d.robotsTxt.added, 3);
    assert.equal(d.robotsTxt.removed, 0);
    assert.match(d.robotsTxt.unifiedDiff, /^--- robots\.txt\t.*\(before\)\n\+\+\+ robots\.txt\t.*\(after\)\n@@ -1,\d+ \+1,\d+ @@\n\+User-agent: GPTBot\n\+Disallow: \/private\/\n\+\n User-agent: \*/);
    assert.ok(d.summary.some((s: string) => /GPTBot from network A and network B are now blocked \(they were served\)/.test(s)), d.summary.join('\n'));
    assert.equal(d.diffUrl, `http://agent-readiness.test/r/${first}/diff/${second}`);
  });

  test('the same report twice: nothing changed', async () => {
    const res = await request(t.app).get(`/r/${first}/diff/${first}?format=json`).expect(200).expect(conforms);
    assert.deepEqual([res.body.summary, res.body.cells, res.body.checks, res.body.robotsTxt.changed], [[], [], [], false]);
  });

  test('HTML: a page with the summary, the changed cells and the marked diff lines', async () => {
    const res = await request(t.app).get(`/r/${first}/diff/${second}`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.match(res.text, /<h2 id="summary">What changed<\/h2>/);
    assert.match(res.text, /<th scope="row">GPTBot<\/th><td>network A<\/td>/);
    assert.match(res.text, /<span class="da">\+User-agent: GPTBot<\/span>/);
    assert.ok(res.text.includes(`href="http://agent-readiness.test/r/${first}"`) && res.text.includes(`href="http://agent-readiness.test/r/${second}"`));
  });

  test('two reports of different domains: 400 in the Error shape, and a page for a browser', async () => {
    const json = await request(t.app).get(`/r/${first}/diff/${other}`).set('Accept', 'application/json').expect(400).expect(conforms);
    assert.match(json.body.error, /different domains \(watched-shop\.world-fixtures\.com and open-basic\.world-fixtures\.com\)/);
    const page = await request(t.app).get(`/r/${first}/diff/${other}`).set('Accept', 'text/html').expect(400).expect(conforms);
    assert.match(page.text, /These reports cannot be compared/);
  });

  test('an MCP-server report cannot be compared: 400', async () => {
    const id = randomUUID();
    const row = { id, kind: 'mcp-server' as const, domain: world.domain('watched-shop'), headline: 'open', score: null };
    await archiveScan(t.ctx.db, {
      ...row, report: reportFor(row), evidence: null,
      scanned_at: new Date().toISOString(), lead_name: 'Ada', lead_email: lead.email, lead_phone: null, lead_role: null, upload_token_hash: null,
    }, []);
    const res = await request(t.app).get(`/r/${first}/diff/${id}?format=json`).expect(400).expect(conforms);
    assert.match(res.body.error, /MCP-server report/);
  });

  test('an unknown id: 404, JSON or page; a malformed id: 400, JSON or page', async () => {
    const missing = randomUUID();
    const json = await request(t.app).get(`/r/${first}/diff/${missing}`).set('Accept', 'application/json').expect(404).expect(conforms);
    assert.equal(json.body.error, `No archived report with the id ${missing}.`);
    const page = await request(t.app).get(`/r/${missing}/diff/${first}`).set('Accept', 'text/html').expect(404).expect(conforms);
    assert.ok(page.text.includes(`/r/${missing}</code>`));
    await request(t.app).get(`/r/${first}/diff/not-an-id`).set('Accept', 'application/json').expect(400).expect(conforms);
    const bad = await request(t.app).get(`/r/${first}/diff/${first.slice(0, 20)}`).set('Accept', 'text/html').expect(400).expect(conforms);
    assert.match(bad.text, /This report link is incomplete/);
  });

  test('the production pipeline (no response validation) refuses malformed ids the same way', async () => {
    const prod = await scanApiApp({ VALIDATE_RESPONSES: 'false' }, { scanner: { scan: () => Promise.reject(new Error('unused')) } });
    try {
      const res = await request(prod.app).get(`/r/${first}/diff/zzz`).set('Accept', 'application/json').expect(400);
      assert.ok(res.body.error);
    } finally {
      await prod.close();
    }
  });
});
