/** Dual-era: 2026-07-28 clients get server/discover and `_meta`-style calls (mcp.md §1-2). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { fakeDeps, KNOWN_SCAN_ID, mcpApp, PIPELINES } from './fakes.ts';

for (const pipeline of PIPELINES) {
  const app = mcpApp(fakeDeps(), pipeline);
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };

  function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    return request(app).post('/mcp').set('Content-Type', 'application/json')
      .set({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...headers })
      .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }));
  }

  describe(`modern-era requests (${pipeline})`, () => {
    test('server/discover lists modern and legacy versions with serverInfo in _meta', async () => {
      const res = await modern('server/discover').expect(200);
      const r = res.body.result;
      assert.equal(r.resultType, 'complete');
      assert.deepEqual(r.supportedVersions.slice(0, 2), ['2026-07-28', '2025-11-25']);
      assert.deepEqual(r.capabilities, { tools: {} });
      assert.equal(r._meta['io.modelcontextprotocol/serverInfo'].version, '1.0.0');
    });

    test('modern tools/list carries resultType and cache hints', async () => {
      const res = await modern('tools/list').expect(200);
      assert.equal(res.body.result.resultType, 'complete');
      assert.equal(res.body.result.cacheScope, 'public');
      assert.equal(res.body.result.tools.length, 3);
    });

    test('modern tools/call requires a matching Mcp-Name header', async () => {
      const ok = await modern('tools/call', { name: 'get_report', arguments: { scanId: KNOWN_SCAN_ID } }, { 'Mcp-Name': 'get_report' }).expect(200);
      assert.equal(ok.body.result.resultType, 'complete');
      assert.equal(ok.body.result.structuredContent.scanId, KNOWN_SCAN_ID);
      const bad = await modern('tools/call', { name: 'get_report', arguments: { scanId: KNOWN_SCAN_ID } }, { 'Mcp-Name': 'list_checks' }).expect(400);
      assert.equal(bad.body.error.code, -32020);
    });

    test('a modern Mcp-Method header that disagrees with the body is 400 -32020', async () => {
      const res = await modern('tools/list', {}, { 'Mcp-Method': 'server/discover' }).expect(400);
      assert.equal(res.body.error.code, -32020);
    });

    test('a modern request without clientCapabilities in _meta is 400 -32602', async () => {
      const res = await request(app).post('/mcp').set('Content-Type', 'application/json')
        .set({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' })
        .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })).expect(400);
      assert.equal(res.body.error.code, -32602);
    });

    test('a future modern version is 400 -32022 listing what we support', async () => {
      const res = await request(app).post('/mcp').set('Content-Type', 'application/json')
        .set({ 'MCP-Protocol-Version': '2027-01-01', 'Mcp-Method': 'server/discover' })
        .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } } })).expect(400);
      assert.equal(res.body.error.code, -32022);
      assert.ok(res.body.error.data.supported.includes('2026-07-28'));
    });

    test('methods removed in 2026-07-28 (initialize, ping) are HTTP 404 with -32601', async () => {
      assert.equal((await modern('ping').expect(404).expect(conforms)).body.error.code, -32601);
      assert.equal((await modern('initialize').expect(404).expect(conforms)).body.error.code, -32601);
    });
  });
}
