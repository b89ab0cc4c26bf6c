/** Pure parts of the MCP scanner: target rules, SSE, challenges, manifests, schemas, verdicts. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateMcpTarget } from '../../src/mcp-scan/target.ts';
import { parseSse, sseWatcher } from '../../src/mcp-scan/sse.ts';
import { parseChallenge } from '../../src/mcp-scan/auth.ts';
import { parseManifest } from '../../src/mcp-scan/manifest.ts';
import { schemaIssue } from '../../src/mcp-scan/schema.ts';
import { toExchange } from '../../src/mcp-scan/probe.ts';
import type { ProbeResult } from '../../src/net/egress.ts';

const ok = (status: number, headers: Record<string, string>, body: string): ProbeResult =>
  ({ ok: true, status, headers, setCookieNames: [], body: Buffer.from(body), bodyTruncated: false, finalUrl: 'https://x.example.net/mcp', redirects: [], timingMs: 1 });

describe('validateMcpTarget', () => {
  const cases: Array<[string, string, ReturnType<typeof validateMcpTarget>['ok'], number | null]> = [
    ['bare domain', 'mcp.acme-mcp.io', true, null],
    ['https endpoint', 'https://mcp.acme-mcp.io/mcp', true, null],
    ['explicit 443', 'https://mcp.acme-mcp.io:443/mcp', true, null],
    ['plain http', 'http://mcp.acme-mcp.io/mcp', false, 400],
    ['other port', 'https://mcp.acme-mcp.io:8443/mcp', false, 400],
    ['IPv4', 'https://93.184.216.34/mcp', false, 400],
    ['IPv6', 'https://[2606:2800:220:1::]/mcp', false, 400],
    ['decimal IP', 'https://1572395042/mcp', false, 400],
    ['localhost', 'localhost', false, 400],
    ['single label', 'https://intranet/mcp', false, 400],
    ['credentials', 'https://user:pw@mcp.acme-mcp.io/mcp', false, 400],
    ['empty', '   ', false, 400],
    ['ftp', 'ftp://mcp.acme-mcp.io/', false, 400],
  ];
  for (const [name, target, want, status] of cases) {
    test(`target rule: ${name}`, () => {
      const v = validateMcpTarget(target);
      assert.equal(v.ok, want);
      if (!v.ok) assert.equal(v.status, status);
    });
  }

  test('target rule: bare domain and root URL have no endpoint; a path does', () => {
    assert.deepEqual(validateMcpTarget('mcp.acme-mcp.io'), { ok: true, url: null, host: 'mcp.acme-mcp.io', hasQuery: false });
    assert.equal((validateMcpTarget('https://mcp.acme-mcp.io/') as { url: string | null }).url, null);
    assert.equal((validateMcpTarget('mcp.acme-mcp.io/v1/mcp') as { url: string | null }).url, 'https://mcp.acme-mcp.io/v1/mcp');
  });

  test('target rule: a query string is allowed but flagged, so it is never archived', () => {
    const v = validateMcpTarget('https://mcp.acme-mcp.io/mcp?token=abc');
    assert.ok(v.ok && v.hasQuery && v.url !== null);
  });

  test('target rule: the scanner zone and names below it are 422', () => {
    assert.equal((validateMcpTarget('https://mcp.scanner.acme-mcp.io/mcp', { scannerZone: 'scanner.acme-mcp.io' }) as { status: number }).status, 422);
    assert.equal((validateMcpTarget('scanner.acme-mcp.io', { scannerZone: 'scanner.acme-mcp.io' }) as { status: number }).status, 422);
    assert.equal(validateMcpTarget('notscanner.acme-mcp.io', { scannerZone: 'scanner.acme-mcp.io' }).ok, true);
  });
});

describe('scanner parsers', () => {
  test('sseWatcher stops at the chunk that completes the wanted event, across split UTF-8 and CRLF', () => {
    const stream = Buffer.from(': keepalive\r\n\r\nevent: note\ndata: héllo ✓\n\nevent: endpoint\ndata: /messages?s=1\r\n\r\n');
    const seen: string[] = [];
    const stop = sseWatcher((e) => { seen.push(`${e.event}:${e.data}`); return e.event === 'endpoint'; });
    let stoppedAt = -1;
    // Grow the body one byte at a time, as a slow stream would deliver it.
    for (let n = 1; n <= stream.length; n++) {
      if (stop(stream.subarray(0, n))) { stoppedAt = n; break; }
    }
    // The second CR already ends the blank line (a CR alone is a line end), so the final LF is not needed.
    assert.equal(stoppedAt, stream.length - 1, 'true exactly when the blank line ending the endpoint event arrives');
    assert.deepEqual(seen, ['note:héllo ✓', 'endpoint:/messages?s=1'], 'each event parsed once, multi-byte characters intact');
  });

  test('parseSse reads events, multi-line data and ignores comments and an unfinished tail', () => {
    const events = parseSse(': hi\n\nevent: endpoint\ndata: /messages?s=1\n\nid: 7\ndata: {"a":\ndata: 1}\n\ndata: partial');
    assert.deepEqual(events, [{ event: 'endpoint', data: '/messages?s=1', id: null }, { event: 'message', data: '{"a":\n1}', id: '7' }]);
  });

  test('parseChallenge reads the scheme and quoted parameters', () => {
    const c = parseChallenge('Bearer error="invalid_token", error_description="Missing \\"Authorization\\" header", resource_metadata="https://a.example.net/.well-known/oauth-protected-resource/mcp", scope=tools');
    assert.equal(c.scheme, 'bearer');
    assert.equal(c.params.resource_metadata, 'https://a.example.net/.well-known/oauth-protected-resource/mcp');
    assert.equal(c.params.error_description, 'Missing "Authorization" header');
    assert.equal(c.params.scope, 'tools');
  });

  test('parseManifest recognises SEP-1649, server cards and registry server.json', () => {
    const sep = parseManifest('https://h.example.net/.well-known/mcp.json', JSON.stringify({ protocolVersion: '2025-11-25', serverInfo: { name: 'n', version: '1' }, transport: { type: 'streamable-http', endpoint: '/mcp' }, authentication: { required: true } }));
    assert.deepEqual([sep?.format, sep?.endpoint, sep?.authRequired], ['sep-1649', 'https://h.example.net/mcp', true]);
    const card = parseManifest('https://h.example.net/.well-known/mcp/server-card.json', JSON.stringify({ $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'net.example/x', version: '2', remotes: [{ type: 'streamable-http', url: 'https://api.example.net/mcp', supportedProtocolVersions: ['2026-07-28'] }] }));
    assert.deepEqual([card?.format, card?.endpoint, card?.versions], ['server-card-v1', 'https://api.example.net/mcp', ['2026-07-28']]);
    const reg = parseManifest('https://h.example.net/server.json', JSON.stringify({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name: 'io.github.u/x', remotes: [{ type: 'sse', url: 'https://h.example.net/sse' }] }));
    assert.equal(reg?.format, 'server.json');
    assert.equal(parseManifest('u', '<html>'), null);
  });

  test('schemaIssue accepts SDK draft-07 and 2020-12 object schemas and names the faults', () => {
    assert.equal(schemaIssue({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string', format: 'email' } } }, 'inputSchema'), null);
    assert.equal(schemaIssue({ type: 'object', properties: { a: { type: 'string' } }, 'x-mcp-header': 'A' }, 'inputSchema'), null);
    assert.match(schemaIssue(null, 'inputSchema') ?? '', /missing/);
    assert.match(schemaIssue({ type: 'array' }, 'outputSchema') ?? '', /not "object"/);
    assert.match(schemaIssue({ type: 'object', properties: { a: { type: 'nope' } } }, 'inputSchema') ?? '', /does not compile/);
    assert.match(schemaIssue({ type: 'object', required: 'a' }, 'inputSchema') ?? '', /does not compile/);
  });
});

describe('exchange verdicts', () => {
  test('verdict: a JSON-RPC reply in an SSE stream with the awaited id', () => {
    const ex = toExchange('t', ok(200, { 'content-type': 'text/event-stream' }, 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n'), 7);
    assert.equal(ex.verdict, 'rpc');
    assert.equal(ex.isSse, true);
  });

  test('verdict: any 401 is policy, whatever the body', () => {
    assert.equal(toExchange('t', ok(401, { 'content-type': 'text/html' }, '<h1>Login</h1>'), 1).verdict, 'policy');
  });

  test('verdict: a 403 with a Bearer challenge is policy, an HTML 403 is a block', () => {
    assert.equal(toExchange('t', ok(403, { 'www-authenticate': 'Bearer error="insufficient_scope"' }, '{}'), 1).verdict, 'policy');
    assert.equal(toExchange('t', ok(403, { 'content-type': 'text/html' }, '<title>Attention Required!</title>'), 1).verdict, 'blocked');
    assert.equal(toExchange('t', ok(429, { 'content-type': 'application/json' }, '{"error":"slow down"}'), 1).verdict, 'blocked');
  });

  test('verdict: an error with id null is JSON-RPC but not our reply', () => {
    assert.equal(toExchange('t', ok(400, { 'content-type': 'application/json' }, '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}}'), 1).verdict, 'rpc-other');
  });

  test('verdict: egress failures map to unreachable and timeout, never to an HTTP answer', () => {
    const fail = (errorCode: string): ProbeResult => ({ ok: false, errorCode: errorCode as 'TLS', message: 'm', redirects: [], timingMs: 1 });
    assert.equal(toExchange('t', fail('TLS'), 1).verdict, 'unreachable');
    assert.equal(toExchange('t', fail('DNS_NXDOMAIN'), 1).verdict, 'unreachable');
    assert.equal(toExchange('t', fail('TIMEOUT'), 1).verdict, 'timeout');
  });
});
