/**
 * The conformance mapper on synthetic evidence: a sound legacy server as the
 * baseline, one change per case, and the data file's invariants (the 37 ids of
 * requirements/2026-07-28.yaml, in order, each with a decision).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mapConformance } from '../../src/mcp-scan/conformance.ts';
import { SERVER_SCENARIOS, CONFORMANCE_SOURCE, CONFORMANCE_REQUIREMENTS } from '../../src/mcp-scan/data/conformance-2026-07-28.ts';
import { MCP_CHECKS } from '../../src/mcp-scan/checks/index.ts';
import { buildReport } from '../../src/mcp-scan/report.ts';
import { renderMcpReportPage } from '../../src/report/mcp-page.ts';
import { validateMcpServerReport } from '../../generated/validators.js';
import type { components } from '../../generated/api-types.ts';
import type { CheckResult, ConformanceStatus, Evidence, Exchange } from '../../src/mcp-scan/types.ts';

/** requirements/2026-07-28.yaml `server:`, copied verbatim at the commit the data file cites. */
const REQUIRED_2026_07_28 = [
  'server-stateless', 'completion-complete', 'tools-list', 'tools-call-simple-text', 'tools-call-image', 'tools-call-audio',
  'tools-call-embedded-resource', 'tools-call-mixed-content', 'tools-call-error', 'tools-call-with-progress', 'server-sse-multiple-streams',
  'resources-list', 'resources-read-text', 'resources-read-binary', 'resources-templates-read', 'sep-2164-resource-not-found', 'prompts-list',
  'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image', 'dns-rebinding-protection', 'caching',
  'input-required-result-basic-elicitation', 'input-required-result-basic-sampling', 'input-required-result-basic-list-roots',
  'input-required-result-request-state', 'input-required-result-multiple-input-requests', 'input-required-result-multi-round',
  'input-required-result-missing-input-response', 'input-required-result-non-tool-request', 'input-required-result-result-type',
  'input-required-result-unsupported-methods', 'input-required-result-tampered-state', 'input-required-result-capability-check',
  'input-required-result-ignore-extra-params', 'input-required-result-validate-input',
];

const EP = 'https://mcp.acme-mcp.io/mcp';
const TOOL = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } };

function ex(over: Partial<Exchange> = {}): Exchange {
  return { label: 'POST /mcp x', verdict: 'rpc', status: 200, headers: {}, contentType: 'application/json', text: '{}', isSse: false, rpc: { id: 1, result: {} }, errorCode: null, ...over };
}
const discover = (versions: string[], caps: Record<string, unknown> = { tools: {} }) => ex({ rpc: { id: 2, result: { supportedVersions: versions, capabilities: caps } } });
const toolsPage = (result: Record<string, unknown>) => [ex({ rpc: { id: 10, result } })];
const withCaps = (capabilities: Record<string, unknown>) => ex({ rpc: { id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, ...capabilities } } } });
const legacyDiscover = ex({ verdict: 'http', status: 400, rpc: null, text: 'Unsupported protocol version' });

function baseline(over: Partial<Evidence> = {}): Evidence {
  return {
    input: 'mcp.acme-mcp.io', endpoint: EP, resolvedVia: 'convention', attempts: [], manifestProbes: [], manifest: null,
    init: ex({ rpc: { id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } } }),
    legacySse: null, negotiatedVersion: '2025-11-25', sessionId: null, notification: null, badVersionInit: null, discover: legacyDiscover,
    toolsPages: toolsPage({ tools: [TOOL] }), tools: [TOOL], cursorLoop: false, pagesCapped: false, versionHeader: null,
    methodNotFound: null, invalidParams: null, parseError: null, get: null, auth: null, requestCount: 5,
    ...over,
  };
}
const modernOnly = (over: Partial<Evidence> = {}): Partial<Evidence> =>
  ({ init: ex({ verdict: 'http', status: 400, rpc: null }), negotiatedVersion: null, discover: discover(['2026-07-28']), ...over });
const checksOf = (ev: Evidence): CheckResult[] => MCP_CHECKS.map((c) => {
  const o = c.evaluate(ev);
  return { id: c.id, title: c.title, status: o.status, reason: o.reason ?? null, level: c.level, detail: o.detail, spec: c.spec };
});
const statusOf = (ev: Evidence, id: string) => {
  const row = mapConformance(ev, checksOf(ev)).scenarios.find((s) => s.scenario === id)!;
  return row;
};

describe('conformance data file', () => {
  test('lists exactly the 37 required 2026-07-28 server scenarios, in the requirements order', () => {
    assert.deepEqual(SERVER_SCENARIOS.map((s) => s.id), REQUIRED_2026_07_28);
    assert.equal(SERVER_SCENARIOS.length, 37);
    assert.equal(CONFORMANCE_REQUIREMENTS, '2026-07-28');
    assert.match(CONFORMANCE_SOURCE.commit, /^[0-9a-f]{40}$/);
  });
  test('every scenario says what it needs and how we decide it; checks named exist', () => {
    const ids = new Set(MCP_CHECKS.map((c) => c.id));
    for (const s of SERVER_SCENARIOS) {
      assert.ok(s.needs.length > 10 && s.basis.length > 10, s.id);
      for (const c of s.checks) assert.ok(ids.has(c), `${s.id} names unknown check ${c}`);
    }
  });
});

describe('conformance mapper', () => {
  const cases: Array<[string, string, Partial<Evidence>, ConformanceStatus, RegExp?]> = [
    ['legacy server has no server/discover', 'server-stateless', {}, 'fail', /sep-2575-server-implements-discover/],
    ['modern server answers server/discover', 'server-stateless', modernOnly(), 'not-verified', /would pass/],
    ['credential wall', 'server-stateless', { init: ex({ verdict: 'policy', status: 401, rpc: null }) }, 'not-verified', /credentials/],
    ['unreachable server', 'server-stateless', { endpoint: null, init: ex({ verdict: 'unreachable', status: null, rpc: null, errorCode: 'ECONNREFUSED' }) }, 'not-verified'],
    ['HTTP+SSE-only server', 'server-stateless', { legacySse: ex({ verdict: 'http', isSse: true }), discover: null }, 'fail'],
    ['sound listing on a modern server', 'tools-list', modernOnly(), 'pass'],
    ['sound listing on a dual-era server', 'tools-list', { discover: discover(['2025-11-25', '2026-07-28']) }, 'pass', /dual-era/],
    ['sound listing on a legacy server is not proof at 2026-07-28', 'tools-list', {}, 'not-verified', /legacy wire/],
    ['a tool without description', 'tools-list', modernOnly({ tools: [{ name: 'x', inputSchema: { type: 'object' } }] }), 'fail', /no description/],
    ['a 65-character name', 'tools-list', { tools: [{ ...TOOL, name: 'a'.repeat(65) }] }, 'fail', /name format/],
    ['a failed listing', 'tools-list', { toolsPages: [ex({ rpc: { id: 10, error: { code: -32603, message: 'boom' } } })], tools: null }, 'fail', /-32603/],
    ['no tools capability', 'tools-list', modernOnly({ toolsPages: [], tools: null }), 'not-applicable'],
    ['tools behind a token', 'tools-list', modernOnly({ toolsPages: [ex({ verdict: 'policy', status: 401, rpc: null })], tools: null }), 'not-verified', /credentials/],
    ['caching hints missing on a modern server', 'caching', modernOnly(), 'fail', /ttlMs and cacheScope/],
    ['caching hints missing on a legacy server', 'caching', {}, 'fail'],
    ['caching hints missing on the legacy wire of a dual-era server', 'caching', { discover: discover(['2025-11-25', '2026-07-28']) }, 'not-verified'],
    ['valid caching hints', 'caching', modernOnly({ toolsPages: toolsPage({ tools: [TOOL], ttlMs: 60000, cacheScope: 'public' }) }), 'not-verified', /other|not requested/],
    ['negative ttlMs', 'caching', modernOnly({ toolsPages: toolsPage({ tools: [TOOL], ttlMs: -1, cacheScope: 'public' }) }), 'fail', /ttlMs/],
    ['unknown cacheScope', 'caching', modernOnly({ toolsPages: toolsPage({ tools: [TOOL], ttlMs: 0, cacheScope: 'shared' }) }), 'fail', /cacheScope/],
    ['no resources capability', 'resources-list', {}, 'not-applicable'],
    ['resources declared', 'resources-list', modernOnly({ discover: discover(['2026-07-28'], { tools: {}, resources: {} }) }), 'not-verified', /resources\/list/],
    ['sound resources on a modern server', 'resources-list', modernOnly({ discover: discover(['2026-07-28'], { resources: {} }), resourcesList: ex({ rpc: { id: 23, result: { resources: [{ uri: 'file:///a', name: 'a' }] } } }) }), 'pass'],
    ['a resource without a name', 'resources-list', { init: withCaps({ resources: {} }), resourcesList: ex({ rpc: { id: 23, result: { resources: [{ uri: 'file:///a' }] } } }) }, 'fail', /no name/],
    ['resources/list answered with an error', 'resources-list', { init: withCaps({ resources: {} }), resourcesList: ex({ rpc: { id: 23, error: { code: -32601, message: 'nope' } } }) }, 'fail', /-32601/],
    ['sound resources on a legacy server', 'resources-list', { init: withCaps({ resources: {} }), resourcesList: ex({ rpc: { id: 23, result: { resources: [] } } }) }, 'not-verified', /legacy wire/],
    ['resources/list behind a token', 'resources-list', { init: withCaps({ resources: {} }), resourcesList: ex({ verdict: 'policy', status: 401, rpc: null }) }, 'not-verified', /credentials/],
    ['no prompts capability', 'prompts-list', {}, 'not-applicable'],
    ['sound prompts on a modern server', 'prompts-list', modernOnly({ discover: discover(['2026-07-28'], { prompts: {} }), promptsList: ex({ rpc: { id: 24, result: { prompts: [{ name: 'p', description: 'd' }] } } }) }), 'pass'],
    ['a prompt without a description', 'prompts-list', modernOnly({ discover: discover(['2026-07-28'], { prompts: {} }), promptsList: ex({ rpc: { id: 24, result: { prompts: [{ name: 'p' }] } } }) }), 'fail', /no description/],
    ['prompts/list lacks caching hints', 'caching', modernOnly({ toolsPages: toolsPage({ tools: [TOOL], ttlMs: 1, cacheScope: 'private' }), promptsList: ex({ rpc: { id: 24, result: { prompts: [] } } }) }), 'fail', /prompts\/list lacks/],
    ['both listings plain at 2026-07-28', 'input-required-result-unsupported-methods', modernOnly({ promptsList: ex({ rpc: { id: 24, result: { prompts: [] } } }) }), 'pass'],
    ['prompts/list answered with an InputRequiredResult', 'input-required-result-unsupported-methods', modernOnly({ promptsList: ex({ rpc: { id: 24, result: { resultType: 'input_required' } } }) }), 'fail', /prompts\/list/],
    ['both listings plain, but over the legacy wire of a dual-era server', 'input-required-result-unsupported-methods', { discover: discover(['2025-11-25', '2026-07-28']), promptsList: ex({ rpc: { id: 24, result: { prompts: [] } } }) }, 'not-verified'],
    ['prompts declared (initialize)', 'prompts-list', { init: ex({ rpc: { id: 1, result: { protocolVersion: '2025-11-25', capabilities: { prompts: {} } } } }) }, 'not-verified'],
    ['tools/list answered with an InputRequiredResult', 'input-required-result-unsupported-methods', modernOnly({ toolsPages: toolsPage({ resultType: 'input_required', inputRequests: {} }) }), 'fail'],
    ['tools/list is a plain result', 'input-required-result-unsupported-methods', modernOnly(), 'not-verified'],
    ['fixture tool', 'tools-call-image', modernOnly(), 'not-applicable', /test_image_content/],
    ['fixture prompt', 'prompts-get-with-args', {}, 'not-applicable', /test_prompt_with_arguments/],
    ['fixture resource', 'resources-read-binary', {}, 'not-applicable', /test:\/\/static-binary/],
    ['localhost only', 'dns-rebinding-protection', modernOnly(), 'not-applicable', /localhost/],
    ['concurrent streams', 'server-sse-multiple-streams', modernOnly(), 'not-verified'],
    ['resources/read not sent', 'sep-2164-resource-not-found', modernOnly(), 'not-verified'],
    ['multi-round trip fixture', 'input-required-result-multi-round', modernOnly(), 'not-applicable'],
  ];
  for (const [name, id, over, status, detail] of cases) {
    test(`scenario ${id}: ${name}`, () => {
      const row = statusOf(baseline(over), id);
      assert.equal(row.status, status, row.detail);
      if (detail) assert.match(row.detail, detail);
    });
  }

  test('one row per scenario, in order, counts adding up, deterministic', () => {
    const ev = baseline(modernOnly());
    const a = mapConformance(ev, checksOf(ev));
    assert.deepEqual(a.scenarios.map((s) => s.scenario), REQUIRED_2026_07_28);
    const c = a.counts;
    assert.equal(c.pass + c.fail + c.notApplicable + c.notVerified, 37);
    assert.deepEqual(mapConformance(ev, checksOf(ev)), a);
  });

  test('a check that throws on odd evidence makes its scenario not-verified, never a crash', () => {
    const ev = baseline({ tools: [null, 7, 'x'] as unknown[] });
    const r = mapConformance(ev, checksOf(ev));
    assert.equal(r.scenarios.length, 37);
  });
});

describe('conformance in the report', () => {
  const ev = baseline();
  const report = { ...buildReport(ev, checksOf(ev), new Date('2026-11-22T10:20:00Z'), 10), scanId: '7b0e4c1a-2d3f-4a5b-8c6d-9e0f1a2b3c4d', archived: false };

  test('the report carries the mapping and validates against McpServerReport', () => {
    assert.equal(report.conformance?.scenarios.length, 37);
    assert.ok(validateMcpServerReport(report), JSON.stringify(validateMcpServerReport.errors));
  });

  test('the HTML page shows every scenario next to our checks, fails first', () => {
    const page = renderMcpReportPage(report as unknown as components['schemas']['McpServerReport']);
    const section = page.slice(page.indexOf('id="conformance"'));
    assert.ok(page.indexOf('id="checklist"') < page.indexOf('id="conformance"'), 'after our own checklist');
    for (const id of REQUIRED_2026_07_28) assert.ok(section.includes(`<code>${id}</code>`), id);
    assert.match(section, /no tool was called/);
    assert.ok(section.indexOf('<code>caching</code>') < section.indexOf('<code>tools-list</code>'), 'fails (caching) come before the rest (tools-list)');
    assert.match(section, /https:\/\/github\.com\/modelcontextprotocol\/conformance\/blob\/[0-9a-f]{40}\/requirements\/2026-07-28\.yaml/);
  });

  test('an older archived report without the field still renders', () => {
    const { conformance: _drop, ...old } = report;
    const page = renderMcpReportPage(old as unknown as components['schemas']['McpServerReport']);
    assert.ok(!page.includes('id="conformance"'));
  });
});
