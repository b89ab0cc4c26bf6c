/**
 * POST/GET /mcp through the lead's real pipeline (body reader, OpenAPI validator with
 * response validation, error renderer) with our handlers swapped into the table:
 * every status code openapi.yaml lists for the two operations, each checked by conforms().
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { postMcp } from '../../src/handlers/postMcp.ts';
import { getMcp } from '../../src/handlers/getMcp.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

describe('/mcp through the app pipeline', () => {
  let t: TestApp;
  let app: TestApp['app'];
  const rpc = (body: string) => request(app).post('/mcp').set('Content-Type', 'application/json').send(body);

  before(async () => {
    const options = { handlers: { postMcp, getMcp } };
    t = await testApp({}, options, { scanner: fakeScanner(), scans: { resolve: fakeResolver() }, mcp: { sse: { lifetimeMs: 150, keepaliveMs: 40 } } });
    app = t.app;
  });
  after(async () => { await t.close(); });

  test('app: the SDK client lists and calls every tool through the full pipeline', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const client = new Client({ name: 'app-pipeline-test', version: '0.0.1' });
    try {
      const { port } = server.address() as AddressInfo;
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      assert.deepEqual((await client.listTools()).tools.map((x) => x.name), ['scan_site', 'get_report', 'list_checks']);
      const catalog = await client.callTool({ name: 'list_checks', arguments: {} });
      assert.equal((catalog.structuredContent as { rubricVersion: string }).rubricVersion, 'rubric-v1.2');
      const missing = await client.callTool({ name: 'get_report', arguments: { scanId: '00000000-0000-4000-8000-000000000000' } });
      assert.equal(missing.isError, true);
      const refused = await client.callTool({ name: 'scan_site', arguments: { domain: 'localhost', name: 'Ada Lovelace', email: 'ada@example.com' } });
      assert.equal(refused.isError, true);
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  test('app: 200 for tools/list with the three tools', async () => {
    const res = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).expect(200).expect(conforms);
    assert.deepEqual(res.body.result.tools.map((x: { name: string }) => x.name), ['scan_site', 'get_report', 'list_checks']);
  });

  test('app: list_checks returns the real catalog', async () => {
    const res = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_checks', arguments: {} } })).expect(200).expect(conforms);
    assert.equal(res.body.result.structuredContent.rubricVersion, 'rubric-v1.2');
  });

  test('app: list_checks with rubric set to the preview returns the next rubric and what it changes; an unknown rubric is an error', async () => {
    const res = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_checks', arguments: { rubric: 'rubric-v1.3-preview' } } })).expect(200).expect(conforms);
    assert.equal(res.body.result.structuredContent.rubricVersion, 'rubric-v1.3-preview');
    assert.equal(res.body.result.structuredContent.stage, 'preview');
    assert.ok(Array.isArray(res.body.result.structuredContent.changes), 'the preview says what it changes against rubric-v1.2');
    const old = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_checks', arguments: { rubric: 'rubric-v1.1' } } })).expect(200).expect(conforms);
    assert.equal(old.body.result.structuredContent.rubricVersion, 'rubric-v1.1');
    assert.equal(old.body.result.structuredContent.stage, 'previous');
    const bad = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_checks', arguments: { rubric: 'rubric-v9' } } })).expect(200);
    assert.ok(bad.body.error || bad.body.result?.isError, JSON.stringify(bad.body));
  });

  test('app: scan_site with an unusable domain is an isError result, not an HTTP error', async () => {
    const res = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'scan_site', arguments: { domain: 'localhost', name: 'Ada Lovelace', email: 'ada@example.com' } } })).expect(200).expect(conforms);
    assert.equal(res.body.result.isError, true);
  });

  test('app: 202 for a notification', async () => {
    await rpc(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })).expect(202).expect(conforms);
  });

  test('app: 400 -32700 for malformed JSON', async () => {
    const res = await rpc('{"jsonrpc":').expect(400).expect(conforms);
    assert.equal(res.body.error.code, -32700);
  });

  test('app: 400 -32600 for a batch', async () => {
    const res = await rpc(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).expect(400).expect(conforms);
    assert.equal(res.body.error.code, -32600);
  });

  test('app: 413 above 128 KB', async () => {
    await rpc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(132 * 1024) } })).expect(413).expect(conforms);
  });

  test('app: 400 JSON-RPC error for a foreign Host (DNS rebinding), within the declared statuses', async () => {
    const res = await request(app).post('/mcp').set('Host', 'evil.example.com').set('Content-Type', 'application/json')
      .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })).expect(400).expect(conforms);
    assert.equal(res.body.error.code, -32600);
  });

  test('app: 415 for text/plain', async () => {
    await request(app).post('/mcp').set('Content-Type', 'text/plain').send('{}').expect(415).expect(conforms);
  });

  test('app: GET 406 without text/event-stream', async () => {
    const res = await request(app).get('/mcp').set('Accept', 'application/json').expect(406).expect(conforms);
    assert.match(res.body.hint, /mcp\.json/);
  });

  test('app: GET 200 streams the endpoint event and closes by itself', async () => {
    const res = await request(app).get('/mcp').set('Accept', 'text/event-stream')
      .buffer(true).parse((r, cb) => { let s = ''; r.setEncoding('utf8'); r.on('data', (c: string) => { s += c; }); r.on('end', () => cb(null, s)); })
      .expect(200).expect(conforms);
    assert.match(String(res.body), /^event: endpoint\ndata: \/mcp\n\n(: keepalive\n\n)+$/);
  });
});
