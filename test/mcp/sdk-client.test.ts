/** The official SDK client, over streamable HTTP, lists and calls every tool of our server. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KNOWN_SCAN_ID, listen, PIPELINES } from './fakes.ts';

for (const pipeline of PIPELINES) {
  describe(`SDK Client against our /mcp (${pipeline})`, () => {
    let srv: Awaited<ReturnType<typeof listen>>;
    let client: Client;

    before(async () => {
      srv = await listen({}, pipeline);
      client = new Client({ name: 'sdk-roundtrip-test', version: '0.0.1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    });
    after(async () => {
      await client.close();
      await srv.close();
    });

    test('sdk client negotiates 2025-11-25 and sees serverInfo 1.0.0 with instructions', () => {
      assert.deepEqual(client.getServerVersion()?.version, '1.0.0');
      assert.equal(client.getServerVersion()?.name, 'agent-readiness');
      assert.ok(client.getServerCapabilities()?.tools);
      assert.match(client.getInstructions() ?? '', /scan_site/);
    });

    test('sdk client lists the three tools with schemas and annotations', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['scan_site', 'get_report', 'list_checks']);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object');
        assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
        assert.ok((tool.description ?? '').length > 20);
      }
      assert.equal(tools[0]?.annotations?.openWorldHint, true);
      assert.deepEqual(tools[0]?.inputSchema.required?.slice().sort(), ['domain', 'email', 'name']);
    });

    test('tool hints say scan_site writes and mails while get_report and list_checks only read', async () => {
      const { tools } = await client.listTools();
      const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
      assert.equal(hints.scan_site?.readOnlyHint, false);
      assert.equal(hints.scan_site?.destructiveHint, false);
      assert.equal(hints.scan_site?.idempotentHint, false);
      assert.equal(hints.scan_site?.openWorldHint, true);
      for (const name of ['get_report', 'list_checks']) {
        assert.equal(hints[name]?.readOnlyHint, true, name);
        assert.equal(hints[name]?.idempotentHint, true, name);
      }
    });

    test('sdk client calls scan_site and the lead reaches the service', async () => {
      const res = await client.callTool({ name: 'scan_site', arguments: { domain: 'example.com', name: 'Ada Lovelace', email: 'ada@example.com', fresh: true } });
      assert.equal(res.isError, undefined);
      assert.equal((res.structuredContent as { scanId: string }).scanId, KNOWN_SCAN_ID);
      const last = srv.deps.scans.at(-1);
      assert.deepEqual(last?.lead, { name: 'Ada Lovelace', email: 'ada@example.com', phone: null, role: null });
      assert.equal(last?.fresh, true);
      assert.equal(last?.clientIp, '127.0.0.1');
    });

    test('sdk client sees a rate-limited scan_site as an isError result with the wait', async () => {
      const res = await client.callTool({ name: 'scan_site', arguments: { domain: 'limited.example', name: 'Ada Lovelace', email: 'ada@example.com' } });
      assert.equal(res.isError, true);
      assert.match(JSON.stringify(res.content), /Retry after 42 seconds/);
    });

    test('sdk client gets an isError result for scan_site without an email', async () => {
      const res = await client.callTool({ name: 'scan_site', arguments: { domain: 'example.com', name: 'Ada Lovelace' } });
      assert.equal(res.isError, true);
    });

    test('sdk client calls get_report for a known and an unknown id', async () => {
      const found = await client.callTool({ name: 'get_report', arguments: { scanId: KNOWN_SCAN_ID } });
      assert.equal((found.structuredContent as { domain: string }).domain, 'example.com');
      const missing = await client.callTool({ name: 'get_report', arguments: { scanId: '00000000-0000-4000-8000-000000000000' } });
      assert.equal(missing.isError, true);
      assert.match(JSON.stringify(missing.content), /No archived report/);
    });

    test('sdk client calls list_checks and gets the catalog', async () => {
      const res = await client.callTool({ name: 'list_checks', arguments: {} });
      assert.equal((res.structuredContent as { rubricVersion: string }).rubricVersion, 'rubric-v1.1');
    });

    test('sdk client ping succeeds', async () => {
      assert.deepEqual(await client.ping(), {});
    });
  });
}
