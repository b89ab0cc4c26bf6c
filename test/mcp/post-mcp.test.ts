/** POST /mcp: the HTTP and JSON-RPC contract (service spec "POST /mcp", mcp.md §8). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { fakeDeps, mcpApp, PIPELINES } from './fakes.ts';

for (const pipeline of PIPELINES) {
  const app = mcpApp(fakeDeps(), pipeline);
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    request(app).post('/mcp').set('Content-Type', 'application/json').set(headers).send(JSON.stringify(body));
  const init = (protocolVersion: string) => ({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });

  describe(`POST /mcp lifecycle (${pipeline})`, () => {
    test('initialize echoes a supported version with serverInfo 1.0.0, tools capability and instructions', async () => {
      const res = await rpc(init('2025-06-18')).expect(200).expect('Content-Type', /application\/json/);
      assert.equal(res.body.id, 1);
      assert.equal(res.body.result.protocolVersion, '2025-06-18');
      assert.equal(res.body.result.serverInfo.version, '1.0.0');
      assert.deepEqual(res.body.result.capabilities, { tools: {} });
      assert.ok(res.body.result.instructions.length > 50);
      assert.equal(res.headers['mcp-session-id'], undefined);
    });

    test('initialize with an unknown version answers our latest legacy version', async () => {
      const res = await rpc(init('1999-01-01')).expect(200);
      assert.equal(res.body.result.protocolVersion, '2025-11-25');
    });

    test('initialize without params is -32602, not the SDK internal error', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 2, method: 'initialize' }).expect(200);
      assert.equal(res.body.error.code, -32602);
      assert.equal(res.body.id, 2);
    });

    test('ping answers an empty result', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 'p', method: 'ping' }).expect(200);
      assert.deepEqual(res.body, { jsonrpc: '2.0', id: 'p', result: {} });
    });

    test('tools/list works without a prior initialize (stateless)', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25' }).expect(200);
      assert.equal(res.body.result.tools.length, 3);
      assert.equal(res.body.result.nextCursor, undefined);
    });

    test('tools/list with a cursor we never issued is -32602', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'bogus' } }).expect(200);
      assert.equal(res.body.error.code, -32602);
    });
  });

  describe(`POST /mcp JSON-RPC errors (${pipeline})`, () => {
    test('unknown method is -32601 with the id echoed', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 9, method: 'foo/bar' }).expect(200);
      assert.deepEqual(res.body.error.code, -32601);
      assert.equal(res.body.id, 9);
    });

    test('a method named after an Object.prototype member is unknown too, not a 500 (found by fuzz.test.ts)', async () => {
      for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        const res = await rpc({ jsonrpc: '2.0', id: 12, method }).expect(200);
        assert.equal(res.body.error.code, -32601, method);
      }
    });

    test('tools/call with empty params is -32602', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: {} }).expect(200);
      assert.equal(res.body.error.code, -32602);
    });

    test('tools/call of an unknown tool is a -32602 protocol error', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'nope', arguments: {} } }).expect(200);
      assert.equal(res.body.error.code, -32602);
      assert.match(res.body.error.message, /Unknown tool/);
    });

    test('tools/call with arguments of the wrong type is an isError result', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'get_report', arguments: { scanId: 7 } } }).expect(200);
      assert.equal(res.body.result.isError, true);
    });

    test('a service that throws inside a tool is an isError result, still HTTP 200', async () => {
      const failing = mcpApp(fakeDeps({ listChecks: () => { throw new Error('catalog store down'); } }), pipeline);
      const res = await request(failing).post('/mcp').set('Content-Type', 'application/json')
        .send(JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'list_checks', arguments: {} } })).expect(200);
      assert.equal(res.body.id, 13);
      assert.equal(res.body.result.isError, true);
    });

    test('malformed JSON is 400 with -32700 and id null, never HTML', async () => {
      const res = await request(app).post('/mcp').set('Content-Type', 'application/json').send('{"jsonrpc":"2.0",').expect(400);
      assert.match(res.headers['content-type'] ?? '', /application\/json/);
      assert.deepEqual(res.body, { jsonrpc: '2.0', id: null, error: { code: -32700, message: res.body.error.message } });
    });

    test('a batch array is 400 with -32600', async () => {
      const res = await rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }]).expect(400);
      assert.equal(res.body.error.code, -32600);
      assert.equal(res.body.id, null);
    });

    test('a body without jsonrpc 2.0 is 400 with -32600 and the id echoed', async () => {
      const res = await rpc({ id: 5, method: 'ping' }).expect(400);
      assert.equal(res.body.error.code, -32600);
      assert.equal(res.body.id, 5);
    });

    test('a null id is 400 with -32600', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: null, method: 'ping' }).expect(400);
      assert.equal(res.body.error.code, -32600);
    });

    test('a scalar JSON body is 400 with -32600', async () => {
      const res = await rpc(42).expect(400);
      assert.equal(res.body.error.code, -32600);
    });
  });

  describe(`POST /mcp HTTP rules (${pipeline})`, () => {
    test('a notification gets 202 with no body', async () => {
      const res = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }).expect(202);
      assert.equal(res.text, '');
    });

    test('a client response message gets 202 with no body', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 7, result: {} }).expect(202);
      assert.equal(res.text, '');
    });

    test('a non-JSON content type is 415 with an Error body', async () => {
      const res = await request(app).post('/mcp').set('Content-Type', 'text/plain').send('{}').expect(415);
      assert.equal(typeof res.body.error, 'string');
    });

    test('a body over 128 KB is 413 with an Error body', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(140 * 1024) } });
      const res = await request(app).post('/mcp').set('Content-Type', 'application/json').send(big).expect(413);
      assert.match(res.body.error, /128 KB/);
    });

    test('a missing Accept header is tolerated', async () => {
      await request(app).post('/mcp').set('Content-Type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })).unset('Accept').expect(200);
    });

    test('Accept */* gets JSON', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Accept: '*/*' }).expect(200);
      assert.deepEqual(res.body.result, {});
    });

    test('a client accepting only SSE gets the reply as one message event', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Accept: 'text/event-stream' }).expect(200).expect('Content-Type', /text\/event-stream/);
      const m = /^event: message\ndata: (.+)\n\n$/.exec(res.text);
      assert.deepEqual(JSON.parse(m?.[1] ?? 'null'), { jsonrpc: '2.0', id: 1, result: {} });
    });

    test('an unsupported MCP-Protocol-Version header is 400 naming the supported versions', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': '1999-01-01' }).expect(400);
      assert.ok(res.body.error.data.supported.includes('2025-11-25'));
    });

    test('a foreign Host header is refused with 400 and a JSON-RPC error (DNS rebinding)', async () => {
      const res = await rpc(init('2025-11-25'), { Host: 'evil.example.com', Origin: 'http://evil.example.com' }).expect(400);
      assert.equal(res.body.error.code, -32600);
      assert.equal(res.body.id, null);
    });

    test('a cross-site Origin with our Host is served (open CORS surface)', async () => {
      await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'https://inspector.example' }).expect(200).expect('Access-Control-Allow-Origin', '*');
    });

    test('a malformed Origin is refused with 400', async () => {
      await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'not a url' }).expect(400);
    });

    test('DELETE /mcp is 405 because there are no sessions', async () => {
      await request(app).delete('/mcp').expect(405).expect('Allow', 'GET, POST');
    });
  });
}
