/**
 * The scanner against real MCP peers in the test world (HTTPS, port 443,
 * guarded egress through the world's proxy): each server gets the checklist
 * mcp.md §9 prescribes, and every report validates against openapi.yaml.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { mcpServers } from '../world/mcp-servers/index.ts';
import { scanMcpServer, type McpScanReport } from '../../src/mcp-scan/index.ts';
import type { ProbeRequest } from '../../src/net/egress.ts';
import { validateMcpServerReport } from '../../generated/validators.js';
import { SERVER_SCENARIOS } from '../../src/mcp-scan/data/conformance-2026-07-28.ts';

// Expected status per check, in registry order; `i:<reason>` is inconclusive with that reason.
const ORDER = [
  'mcp.endpoint.resolved', 'mcp.discovery.manifest', 'mcp.discovery.consistent', 'mcp.transport.post', 'mcp.lifecycle.initialize',
  'mcp.lifecycle.version_negotiation', 'mcp.protocol.version_known', 'mcp.transport.notification', 'mcp.transport.session',
  'mcp.transport.version_header', 'mcp.transport.get', 'mcp.protocol.modern', 'mcp.tools.list', 'mcp.tools.names',
  'mcp.tools.input_schema', 'mcp.tools.descriptions', 'mcp.tools.annotations', 'mcp.errors.method_not_found',
  'mcp.errors.invalid_params', 'mcp.errors.parse_error', 'mcp.auth.discovery',
];
const row = (s: string) => s.trim().split(/\s+/);
const allOf = (v: string) => ORDER.map(() => v);

const EXPECTED: Record<string, string[]> = {
  'mcp-good': row(`pass pass pass pass pass  pass pass pass pass  pass pass i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable`),
  // The SDK's standalone GET stream sends no bytes, so a 2 s read cannot tell it from a stall.
  'mcp-stateful': row(`pass i:not_applicable i:not_applicable pass pass  pass pass pass pass  pass i:timeout i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable`),
  'mcp-oauth': ['pass', 'pass', 'pass', ...allOf('i:policy').slice(0, 17), 'pass'],
  'mcp-legacy-sse': ['pass', 'i:not_applicable', 'i:not_applicable', ...allOf('i:legacy_transport').slice(0, 17), 'i:not_applicable'],
  'mcp-broken': row(`pass i:not_applicable i:not_applicable pass fail  fail pass fail fail  fail fail i:not_applicable pass fail  fail fail fail fail  fail fail i:not_applicable`),
  // The same faults framed by a real SDK: version echo, invalid schemas, -32000 for unknown methods.
  'mcp-broken-sdk': row(`pass i:not_applicable i:not_applicable pass pass  fail pass pass pass  pass fail i:not_applicable pass fail  fail fail pass fail  pass pass i:not_applicable`),
  'mcp-catalog': row(`pass pass pass pass pass  pass pass pass pass  pass pass i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable`),
  'mcp-waf': ['i:blocked', 'i:blocked', 'i:not_applicable', ...allOf('i:blocked').slice(0, 17), 'i:not_applicable'],
  'mcp-modern': row(`pass pass pass pass pass  pass pass pass pass  pass pass pass pass pass  pass pass pass pass  pass pass i:not_applicable`),
  // No handshake in 2026-07-28: lifecycle checks do not apply; everything else runs over modern envelopes.
  'mcp-modern-only': row(`pass pass pass pass i:not_applicable  pass pass i:not_applicable pass  i:not_applicable pass pass pass pass  pass pass pass pass  pass pass i:not_applicable`),
  'mcp-paged': row(`pass i:not_applicable i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable`),
  'mcp-cursor-loop': row(`pass i:not_applicable i:not_applicable pass pass  pass pass pass pass  pass pass i:not_applicable fail pass  pass pass pass pass  pass pass i:not_applicable`),
  // Open handshake, tools behind a token: the tool checks inherit policy, the PRM lookup still runs.
  'mcp-tools-auth': row(`pass pass pass pass pass  pass pass pass pass  i:policy pass i:not_applicable i:policy i:policy  i:policy i:policy i:policy pass  i:policy pass pass`),
  down: ['i:unreachable', 'i:unreachable', 'i:not_applicable', ...allOf('i:unreachable').slice(0, 17), 'i:not_applicable'],
};

// Conformance counts per server: [pass, fail, not-applicable, not-verified] over the 37 required scenarios.
// Legacy servers fail server-stateless (no server/discover) and caching (no ttlMs/cacheScope); walls leave all unverified.
const CONFORMANCE_COUNTS: Record<string, number[]> = {
  'mcp-good': [0, 2, 31, 4], 'mcp-stateful': [0, 2, 31, 4], 'mcp-oauth': [0, 0, 29, 8], 'mcp-legacy-sse': [0, 1, 29, 7],
  'mcp-broken': [0, 3, 31, 3], 'mcp-broken-sdk': [0, 5, 29, 3], 'mcp-catalog': [0, 2, 31, 4], 'mcp-waf': [0, 0, 29, 8],
  'mcp-modern': [1, 0, 31, 5], 'mcp-modern-only': [1, 0, 31, 5], 'mcp-paged': [0, 2, 31, 4], 'mcp-cursor-loop': [0, 3, 31, 3],
  'mcp-tools-auth': [0, 1, 31, 5], down: [0, 0, 29, 8],
};

const statusOf = (r: McpScanReport) => r.checks.map((c) => (c.status === 'inconclusive' ? `i:${c.reason}` : c.status));

describe('MCP scanner against the test world', () => {
  let world: World;
  let servers: ReturnType<typeof mcpServers>;
  const sent: Array<{ host: string; req: ProbeRequest }> = [];
  const reports = new Map<string, McpScanReport>();

  before(async () => {
    servers = mcpServers();
    world = await startWorld({ scenarios: [], handlers: servers.handlers });
    const { networkA } = world.egress();
    // Records every request the scanner makes, to check the budget and what it sends.
    const egress = { fetch: (req: ProbeRequest) => { sent.push({ host: new URL(req.url).hostname, req }); return networkA.fetch(req); } };
    for (const label of Object.keys(EXPECTED)) reports.set(label, await scanMcpServer(world.domain(label), { egress }));
  });
  after(async () => {
    await servers.close();
    await world.stop();
  });

  for (const [label, expected] of Object.entries(EXPECTED)) {
    test(`scanner checklist for ${label}`, () => {
      const r = reports.get(label)!;
      assert.deepEqual(r.checks.map((c) => c.id), ORDER);
      assert.deepEqual(Object.fromEntries(ORDER.map((id, i) => [id, statusOf(r)[i]])), Object.fromEntries(ORDER.map((id, i) => [id, expected[i]])));
    });
  }

  test('every scanner report validates against the McpServerReport schema', () => {
    for (const [label, r] of reports) {
      const full = { ...r, scanId: '7b0e4c1a-2d3f-4a5b-8c6d-9e0f1a2b3c4d', archived: false };
      assert.ok(validateMcpServerReport(full), `${label}: ${JSON.stringify(validateMcpServerReport.errors)}`);
    }
  });

  test('no unreachable, blocked or credential-requiring server gets a fail', () => {
    for (const label of ['mcp-oauth', 'mcp-tools-auth', 'mcp-waf', 'mcp-legacy-sse', 'down']) {
      assert.deepEqual(reports.get(label)!.checks.filter((c) => c.status === 'fail').map((c) => c.id), [], label);
    }
  });

  test('scanner headlines name access, transport, era and sessions', () => {
    const h = (l: string) => reports.get(l)!.headline;
    assert.deepEqual([h('mcp-good').access, h('mcp-good').era, h('mcp-good').sessions, h('mcp-good').toolCount], ['open', 'legacy', 'stateless', 2]);
    assert.equal(h('mcp-stateful').sessions, 'stateful');
    assert.equal(h('mcp-oauth').access, 'auth-required');
    assert.equal(h('mcp-legacy-sse').transport, 'legacy-sse');
    assert.equal(h('mcp-waf').access, 'blocked');
    assert.equal(h('mcp-modern').era, 'dual');
    assert.deepEqual([h('mcp-modern-only').era, h('mcp-modern-only').protocolVersion], ['modern', '2026-07-28']);
    assert.equal(h('down').reachable, false);
    assert.deepEqual([reports.get('mcp-catalog')!.manifest?.format, reports.get('mcp-catalog')!.target.resolvedVia], ['ai-catalog', 'manifest']);
    assert.deepEqual([reports.get('mcp-paged')!.tools.count, reports.get('mcp-paged')!.tools.pages], [5, 3]);
  });

  test('scanner report carries server identity, tool summary and auth metadata', () => {
    const good = reports.get('mcp-good')!;
    assert.equal(good.server?.name, 'good-stateless');
    assert.equal(good.server?.version, '2.3.4');
    assert.deepEqual(good.server?.capabilities, ['tools']);
    assert.equal(good.target.resolvedVia, 'manifest');
    assert.equal(good.tools.items.find((t) => t.name === 'echo')?.readOnlyHint, true);
    assert.equal(good.tools.items.find((t) => t.name === 'echo')?.hasOutputSchema, true);
    const oauth = reports.get('mcp-oauth')!;
    assert.match(oauth.auth?.challenge ?? '', /^Bearer /);
    assert.deepEqual(oauth.auth?.scopes, ['mcp:tools']);
    assert.equal(oauth.auth?.authorizationServers?.length, 1);
    const broken = reports.get('mcp-broken')!;
    assert.ok(broken.tools.schemaIssues >= 2);
    assert.ok(broken.tools.items.find((t) => t.name === 'bad name!')?.issues.includes('no description'));
  });

  test('scanner stays within its request budget and never sends credentials or names a tool', () => {
    const perHost = new Map<string, number>();
    for (const { host } of sent) perHost.set(host, (perHost.get(host) ?? 0) + 1);
    for (const [host, n] of perHost) assert.ok(n <= 16, `${host}: ${n} requests`);
    for (const { req } of sent) {
      const names = Object.keys(req.headers ?? {}).map((h) => h.toLowerCase());
      assert.ok(!names.includes('authorization') && !names.includes('cookie'), `credential header sent to ${req.url}`);
      if (req.body?.includes('tools/call')) assert.equal(JSON.parse(req.body).params.name, undefined, 'a tool was named');
    }
  });

  test('every report maps the 37 required 2026-07-28 conformance scenarios, without calling a tool', (t) => {
    const ids = SERVER_SCENARIOS.map((s) => s.id);
    assert.equal(ids.length, 37);
    for (const [label, r] of reports) {
      const c = r.conformance!;
      assert.ok(c, `${label}: no conformance field`);
      assert.deepEqual([c.suite, c.requirements], ['modelcontextprotocol/conformance', '2026-07-28'], label);
      assert.deepEqual(c.scenarios.map((s) => s.scenario), ids, label);
      for (const s of c.scenarios) assert.ok(['pass', 'fail', 'not-applicable', 'not-verified'].includes(s.status) && s.detail, `${label} ${s.scenario}`);
      const n = c.counts;
      assert.equal(n.pass + n.fail + n.notApplicable + n.notVerified, 37, label);
      t.diagnostic(`${label}: pass ${n.pass} fail ${n.fail} n/a ${n.notApplicable} not-verified ${n.notVerified}`);
      assert.deepEqual([n.pass, n.fail, n.notApplicable, n.notVerified], CONFORMANCE_COUNTS[label], label);
    }
    // mcp-broken-sdk declares resources and prompts: the scanner lists them (and only there) and judges the items.
    const bySdk = new Map(reports.get('mcp-broken-sdk')!.conformance!.scenarios.map((s) => [s.scenario, s]));
    assert.match(bySdk.get('resources-list')!.detail, /item #0 has no name/);
    assert.match(bySdk.get('prompts-list')!.detail, /item #0 has no description/);
    assert.deepEqual([bySdk.get('resources-list')!.status, bySdk.get('prompts-list')!.status], ['fail', 'fail']);
    const listings = sent.filter(({ req }) => /"method":"(resources|prompts)\/list"/.test(req.body ?? ''));
    assert.deepEqual([...new Set(listings.map(({ host }) => host.split('.')[0]))], ['mcp-broken-sdk']);
    // The only tools/call the scanner sends is the nameless invalid-params probe: no tool ever runs.
    const perHost = new Map<string, number>();
    for (const { host, req } of sent) {
      if (!req.body?.includes('tools/call')) continue;
      const body = JSON.parse(req.body) as { method?: string; params?: { name?: unknown } };
      assert.equal(body.params?.name, undefined, `a tool was named to ${host}`);
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
    }
    for (const [host, n] of perHost) assert.ok(n <= 1, `${host}: ${n} tools/call requests`);
  });
});
