/**
 * POST /scan-mcp through the app (validator, limits, archive, error renderer) with the
 * scanner probing the test world's MCP servers: every status openapi.yaml declares.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { scanMcp } from '../../src/handlers/scanMcp.ts';
import { getReport } from '../../src/handlers/getReport.ts';
import { McpScanService } from '../../src/mcp-scan/service.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { startWorld, type World } from '../world/index.ts';
import { mcpServers } from '../world/mcp-servers/index.ts';
import type { McpEgress } from '../../src/mcp-scan/types.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import type { Resolver } from '../../src/scans/types.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@example.com' };
const options = { handlers: { scanMcp, getReport } };

async function appWith(env: Record<string, string>, egress: McpEgress, resolve?: Resolver): Promise<TestApp> {
  let t: TestApp | undefined;
  t = await testApp({ RATE_LIMIT_PER_IP: '50/1800', ...env }, options, {
    mcpScan: (scans) => {
      const service = { current: undefined as McpScanService | undefined };
      // The context exists once testApp has built it; the service is made on first use.
      return { scan: (input) => (service.current ??= new McpScanService({
        db: t!.ctx.db, log: t!.ctx.log, now: t!.ctx.now, baseUrl: t!.ctx.config.baseUrl, excludedDomains: t!.ctx.config.excludedDomains,
        scannerZone: t!.ctx.config.scannerZone, limits: scans.limits, egress, ...(resolve ? { resolve } : {}),
      })).scan(input) };
    },
  });
  return t;
}

describe('POST /scan-mcp', () => {
  let world: World;
  let servers: ReturnType<typeof mcpServers>;
  let t: TestApp;
  const scan = (body: unknown) => request(t.app).post('/scan-mcp').set('Content-Type', 'application/json').send(JSON.stringify(body));

  before(async () => {
    servers = mcpServers();
    world = await startWorld({ scenarios: [], handlers: servers.handlers });
    t = await appWith({
      RATE_LIMIT_PER_DOMAIN: '1/60', EXCLUDED_DOMAINS: 'excluded.world-fixtures.com', SCANNER_ZONE: 'zone.world-fixtures.com',
    }, world.egress().networkA, (host) => resolveHost(host, world.resolveOverrides, 2000));
  });
  after(async () => {
    await t.close();
    await servers.close();
    await world.stop();
  });

  test('scan-mcp 200: a bare domain is scanned, archived and served by GET /r as JSON', async () => {
    const res = await scan({ target: world.domain('mcp-good'), lead }).expect(200).expect(conforms);
    assert.equal(res.body.kind, 'mcp-server');
    assert.equal(res.body.archived, true);
    assert.match(res.body.reportUrl, new RegExp(`/r/${res.body.scanId}$`));
    assert.equal(res.body.headline.access, 'open');
    const stored = await request(t.app).get(`/r/${res.body.scanId}`).expect(200).expect('Content-Type', /json/);
    assert.equal(stored.body.scanId, res.body.scanId);
    assert.deepEqual(stored.body.checks, res.body.checks);
    assert.equal(stored.body.archived, true);
  });

  test('scan-mcp 200: an endpoint with a query string is never archived', async () => {
    const res = await scan({ target: `https://${world.domain('mcp-modern')}/mcp?key=secret`, lead }).expect(200).expect(conforms);
    assert.equal(res.body.archived, false);
    assert.equal(res.body.reportUrl, undefined);
    assert.ok(!JSON.stringify(res.body.checks).includes('secret'), 'the query string leaked into evidence');
    const rows = await t.ctx.db('scans').where({ id: res.body.scanId });
    assert.equal(rows.length, 0);
  });

  test('scan-mcp 200: an endpoint declared with a query string by the manifest is not archived either', async () => {
    const res = await scan({ target: world.domain('mcp-keyed'), lead }).expect(200).expect(conforms);
    assert.equal(res.body.target.resolvedVia, 'manifest');
    assert.equal(res.body.archived, false);
    assert.equal(res.body.reportUrl, undefined);
    // The manifest is public, so its own snippet may show the key; no probe label or detail repeats it.
    const others = res.body.checks.filter((c: { id: string }) => c.id !== 'mcp.discovery.manifest');
    assert.ok(!JSON.stringify(others).includes('k-123'), 'the key leaked into evidence');
    assert.equal((await t.ctx.db('scans').where({ id: res.body.scanId })).length, 0);
  });

  test('scan-mcp 400: plain http, another port, an IP, localhost', async () => {
    for (const target of [`http://${world.domain('mcp-good')}/mcp`, `https://${world.domain('mcp-good')}:8443/mcp`, 'https://93.184.216.34/mcp', 'localhost']) {
      const res = await scan({ target, lead }).expect(400).expect(conforms);
      assert.equal(typeof res.body.error, 'string', target);
    }
  });

  test('scan-mcp 400: a name that resolves only to internal addresses, as for POST /scan', async () => {
    const res = await scan({ target: 'internal.world-fixtures.com', lead }).expect(400).expect(conforms);
    assert.match(res.body.error, /non-public/);
  });

  test('scan-mcp 400: missing contact details', async () => {
    await scan({ target: world.domain('mcp-good') }).expect(400).expect(conforms);
  });

  test('scan-mcp 403: an excluded domain', async () => {
    const res = await scan({ target: 'excluded.world-fixtures.com', lead }).expect(403).expect(conforms);
    assert.equal(res.body.domain, 'excluded.world-fixtures.com');
  });

  test('scan-mcp 413: a body above 32 KB', async () => {
    await scan({ target: world.domain('mcp-good'), lead: { ...lead, role: 'x'.repeat(33 * 1024) } }).expect(413).expect(conforms);
  });

  test('scan-mcp 415: not JSON', async () => {
    await request(t.app).post('/scan-mcp').set('Content-Type', 'text/plain').send('target=x').expect(415).expect(conforms);
  });

  test('scan-mcp 422: a target inside the scanner zone', async () => {
    await scan({ target: 'https://mcp.zone.world-fixtures.com/mcp', lead }).expect(422).expect(conforms);
  });

  test('scan-mcp 429: the per-domain limit is shared with every scan of that host', async () => {
    await scan({ target: world.domain('mcp-waf'), lead }).expect(200).expect(conforms);
    const res = await scan({ target: world.domain('mcp-waf'), lead }).expect(429).expect(conforms);
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  test('scan-mcp 502: a scanner fault is a 502, not a 500', async () => {
    const broken = await appWith({}, { fetch: async () => { throw new Error('egress exploded'); } });
    try {
      const res = await request(broken.app).post('/scan-mcp').set('Content-Type', 'application/json')
        .send(JSON.stringify({ target: world.domain('mcp-good'), lead })).expect(502).expect(conforms);
      assert.equal(res.body.error, 'The scan could not complete.');
    } finally {
      await broken.close();
    }
  });
});
