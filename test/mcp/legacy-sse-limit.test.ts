/**
 * The documented limit of GET /mcp (mcp.md §0.3): an HTTP+SSE (2024-11-05)
 * client connects and reads the endpoint event, but it discards POST replies
 * and waits for them on the stream, which never carries any, so its first
 * request times out. Streamable HTTP clients are unaffected (sdk-client.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { listen, PIPELINES } from './fakes.ts';

for (const pipeline of PIPELINES) {
  test(`legacy SSE client gets the endpoint event but cannot complete a call over it (${pipeline})`, async () => {
    const srv = await listen({ sse: { lifetimeMs: 3000, keepaliveMs: 500 } }, pipeline);
    const client = new Client({ name: 'legacy-sse-limit-test', version: '0.0.1' });
    try {
      await assert.rejects(client.connect(new SSEClientTransport(new URL(srv.url)), { timeout: 400 }), /timed out/i);
    } finally {
      await client.close().catch(() => undefined);
      await srv.close();
    }
  });
}
