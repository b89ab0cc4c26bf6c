/** GET /mcp (legacy endpoint event, 406) and /.well-known/mcp.json. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import request from 'supertest';
import { fakeDeps, listen, mcpApp, PIPELINES } from './fakes.ts';

for (const pipeline of PIPELINES) {
  describe(`GET /mcp (${pipeline})`, () => {
    test('without Accept text/event-stream it is 406 pointing at the manifest and the POST transport', async () => {
      const res = await request(mcpApp(fakeDeps(), pipeline)).get('/mcp').set('Accept', 'application/json').expect(406);
      assert.match(res.body.error, /event-stream/);
      assert.match(res.body.hint, /\/\.well-known\/mcp\.json/);
      assert.match(res.body.hint, /POST/);
    });

    test('with Accept text/event-stream it sends the endpoint event, keepalives, then closes itself', async () => {
      const srv = await listen({ sse: { lifetimeMs: 250, keepaliveMs: 60 } }, pipeline);
      try {
        const started = Date.now();
        const { headers, text } = await new Promise<{ headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
          http.get(srv.url, { headers: { Accept: 'text/event-stream' } }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({ headers: res.headers, text }));
          }).on('error', reject);
        });
        assert.match(headers['content-type'] ?? '', /text\/event-stream/);
        assert.equal(headers['x-accel-buffering'], 'no');
        assert.ok(text.startsWith('event: endpoint\ndata: /mcp\n\n'), text);
        assert.ok((text.match(/^: keepalive$/gm) ?? []).length >= 2, text);
        assert.ok(Date.now() - started >= 240);
      } finally {
        await srv.close();
      }
    });

    test('GET /mcp has no Host check: it carries nothing a rebinding page could use', async () => {
      await request(mcpApp(fakeDeps(), pipeline)).get('/mcp').set('Host', 'evil.example.com').set('Accept', 'application/json').expect(406);
    });
  });

  describe(`/.well-known/mcp.json (${pipeline})`, () => {
    test('manifest declares auth none, the /mcp endpoint and exactly the tools tools/list returns', async () => {
      const app = mcpApp(fakeDeps({ baseUrl: 'https://agent-readiness.example' }), pipeline);
      const manifest = (await request(app).get('/.well-known/mcp.json').expect(200).expect('Access-Control-Allow-Origin', '*')).body;
      assert.deepEqual(manifest.authentication, { type: 'none', required: false });
      assert.equal(manifest.transport.endpoint, '/mcp');
      assert.equal(manifest.transport.url, 'https://agent-readiness.example/mcp');
      assert.equal(manifest.serverInfo.version, '1.0.0');
      const listed = await request(app).post('/mcp').set('Host', 'agent-readiness.example').set('Content-Type', 'application/json')
        .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).expect(200);
      assert.deepEqual(manifest.tools, listed.body.result.tools);
    });
  });
}
