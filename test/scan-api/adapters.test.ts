import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogLookup, mcpScanDeps } from '../../src/scans/adapters.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

describe('adapters for other scan surfaces', () => {
  let t: TestApp;
  before(async () => { t = await scanApiApp({ RATE_LIMIT_PER_IP: '2/1800' }, { scanner: fakeScanner() }); });
  after(() => t.close());

  test('MCP scan_site shares the service: results, error statuses and the same IP budget', async () => {
    const deps = mcpScanDeps(t.ctx, t.services.scans);
    const lead = { name: 'Ada Lovelace', email: 'ada@mcp-adapter-site.com' };
    const ok = await deps.scanSite({ domain: 'mcp-adapter-site.com', lead, clientIp: '192.0.2.50' });
    assert.equal(ok.ok, true);
    const bad = await deps.scanSite({ domain: 'localhost', lead, clientIp: '192.0.2.50' });
    assert.equal(bad.status, 400);
    await deps.scanSite({ domain: 'b.mcp-adapter-site.com', lead, clientIp: '192.0.2.50' });
    const limited = await deps.scanSite({ domain: 'c.mcp-adapter-site.com', lead, clientIp: '192.0.2.50' });
    assert.equal(limited.status, 429);
    assert.ok(!limited.ok && typeof limited.body.retryAfterSeconds === 'number');
    const report = await deps.getReport((ok.body as { scanId: string }).scanId) as Record<string, unknown>;
    assert.equal(report.domain, 'mcp-adapter-site.com');
    assert.equal(report.cliUploadToken, undefined);
    assert.equal(await deps.getReport('00000000-0000-4000-8000-000000000000'), null);
    assert.equal(await deps.getReport('nope'), null);
  });

  test('catalogLookup gives name, why and fix per check id', () => {
    const lookup = catalogLookup({ checks: [{ id: 'a', name: 'A', why: 'because', fix: 'do it' }] });
    assert.deepEqual(lookup('a'), { name: 'A', why: 'because', fix: 'do it' });
    assert.equal(lookup('b'), undefined);
  });
});
