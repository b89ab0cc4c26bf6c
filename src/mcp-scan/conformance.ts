/**
 * The MCP-server checklist mapped to the conformance suite's required
 * 2026-07-28 server scenarios (data/conformance-2026-07-28.ts). Pure: the
 * scan's evidence and check results in, one row per scenario out, in the
 * requirements file's order. It sends nothing, so it never calls a tool.
 */
import { gate, isObject, needsOpenEndpoint, toolObjects } from './checks/util.ts';
import {
  CONFORMANCE_MAP_VERSION, CONFORMANCE_REQUIREMENTS, CONFORMANCE_SOURCE, CONFORMANCE_SUITE, SERVER_SCENARIOS, type ScenarioEntry,
} from './data/conformance-2026-07-28.ts';
import type { CheckResult, ConformanceReport, ConformanceScenario, ConformanceStatus, Evidence } from './types.ts';

type Verdict = { status: ConformanceStatus; detail: string };
/** How the server answers the 2026-07-28 wire the suite runs these scenarios at. */
type Wire = { kind: 'unknown'; detail: string } | { kind: 'legacy'; detail: string } | { kind: 'modern'; dual: boolean };
interface Ctx { ev: Evidence; checks: Map<string, CheckResult>; wire: Wire }

const MODERN = '2026-07-28';
/** The suite's tool-name rule (tools.ts, SEP-986): 1-64 characters of ^[A-Za-z0-9_./-]+$. */
const SUITE_TOOL_NAME = /^[A-Za-z0-9_./-]{1,64}$/;

const nv = (detail: string): Verdict => ({ status: 'not-verified', detail });

function wireOf(ev: Evidence): Wire {
  const open = needsOpenEndpoint(ev, 'The endpoint');
  if (open && open.reason !== 'legacy_transport') return { kind: 'unknown', detail: open.detail };
  if (ev.legacySse) return { kind: 'legacy', detail: 'The server only speaks the deprecated HTTP+SSE transport, not 2026-07-28.' };
  const g = gate(ev.discover, 'server/discover');
  if (g) return { kind: 'unknown', detail: g.detail };
  const versions = ev.discover?.verdict === 'rpc' ? ev.discover.rpc?.result?.supportedVersions : undefined;
  if (Array.isArray(versions) && versions.includes(MODERN)) return { kind: 'modern', dual: ev.init?.verdict === 'rpc' && !!ev.init.rpc?.result };
  const status = ev.discover?.status ?? null;
  return { kind: 'legacy', detail: `server/discover at ${MODERN} was not answered with supportedVersions including ${MODERN}${status === null ? '' : ` (HTTP ${status})`}.` };
}

/** The capabilities the server declared in its InitializeResult or DiscoverResult; null when neither was read. */
function capsOf(ev: Evidence): Record<string, unknown> | null {
  const init = ev.init?.verdict === 'rpc' ? ev.init.rpc?.result?.capabilities : undefined;
  const disc = ev.discover?.verdict === 'rpc' ? ev.discover.rpc?.result?.capabilities : undefined;
  return isObject(init) ? init : isObject(disc) ? disc : null;
}

/** The first tools/list reply, or why none can be read. */
function toolsReply(c: Ctx): { result: Record<string, unknown> } | Verdict | 'none' {
  if (c.wire.kind === 'unknown') return nv(c.wire.detail);
  if (c.ev.legacySse) return nv(c.wire.kind === 'legacy' ? c.wire.detail : 'HTTP+SSE only.');
  const first = c.ev.toolsPages[0];
  if (!first) return 'none';
  const g = gate(first, 'tools/list');
  if (g) return nv(g.detail);
  const result = first.verdict === 'rpc' ? first.rpc?.result : undefined;
  return result ? { result } : nv('tools/list returned no result.');
}

function serverStateless(c: Ctx): Verdict {
  if (c.wire.kind === 'unknown') return nv(c.wire.detail);
  if (c.wire.kind === 'legacy') return { status: 'fail', detail: `${c.wire.detail} Its first check, sep-2575-server-implements-discover, fails.` };
  return nv('server/discover answers, so sep-2575-server-implements-discover would pass; the other SEP-2575 checks need fixture diagnostic tools and error probes the scanner does not send.');
}

function toolsList(c: Ctx): Verdict {
  const listed = c.checks.get('mcp.tools.list');
  const reply = toolsReply(c);
  if (reply === 'none') return { status: 'not-applicable', detail: 'The server declares no tools capability.' };
  if (listed?.status === 'fail') return { status: 'fail', detail: `tools/list: ${listed.detail}` };
  if ('status' in reply) return reply;
  const tools = toolObjects(c.ev) ?? [];
  const problems = tools.flatMap((t, i) => {
    const label = typeof t.name === 'string' && t.name ? `"${t.name.slice(0, 64)}"` : `#${i}`;
    const p: string[] = [];
    if (!t.name) p.push(`tool ${label} has no name`);
    else if (typeof t.name !== 'string' || !SUITE_TOOL_NAME.test(t.name)) p.push(`tool ${label} breaks the name format`);
    if (!t.description) p.push(`tool ${label} has no description`);
    if (!t.inputSchema) p.push(`tool ${label} has no inputSchema`);
    return p;
  });
  if (problems.length) return { status: 'fail', detail: `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; ${problems.length - 5} more` : ''}.` };
  if (c.wire.kind === 'legacy') return nv(`Our tools/list (${tools.length} tool(s)) is sound at the legacy wire; ${c.wire.detail}`);
  const how = c.wire.kind === 'modern' && c.wire.dual ? ' (listed over the legacy wire of a dual-era server)' : '';
  return { status: 'pass', detail: `${tools.length} tool(s), each with a name in the suite's format, a description and an inputSchema${how}.` };
}

function listedCapability(cap: 'resources' | 'prompts', method: string) {
  return (c: Ctx): Verdict => {
    if (c.wire.kind === 'unknown') return nv(c.wire.detail);
    const caps = capsOf(c.ev);
    if (!caps) return nv('The server declared no capabilities the scanner could read.');
    if (caps[cap] === undefined) return { status: 'not-applicable', detail: `The server declares no ${cap} capability.` };
    return nv(`The server declares ${cap}; the scanner does not send ${method}.`);
  };
}

function caching(c: Ctx): Verdict {
  const reply = toolsReply(c);
  if (reply === 'none') return nv('No tools/list result to read caching hints from; the other cacheable endpoints are not requested.');
  if ('status' in reply) return reply;
  const { ttlMs, cacheScope } = reply.result;
  const bad: string[] = [];
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && (ttlMs as number) >= 0)) bad.push(`ttlMs is ${JSON.stringify(ttlMs)}, not an integer >= 0`);
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') bad.push(`cacheScope is ${JSON.stringify(cacheScope)}, not "public" or "private"`);
  if (bad.length) return { status: 'fail', detail: `tools/list: ${bad.join('; ')}.` };
  const missing = [ttlMs === undefined ? 'ttlMs' : null, cacheScope === undefined ? 'cacheScope' : null].filter((m) => m !== null);
  if (missing.length && !(c.wire.kind === 'modern' && c.wire.dual)) {
    return { status: 'fail', detail: `The tools/list result lacks ${missing.join(' and ')} (sep-2549-tools-list-caching-hints fails).` };
  }
  if (missing.length) return nv(`The legacy-wire tools/list result lacks ${missing.join(' and ')}; a dual-era server may add them only at ${MODERN}.`);
  return nv('tools/list carries valid ttlMs and cacheScope; prompts/list, resources/list, resources/templates/list and resources/read are not requested.');
}

function unsupportedMethods(c: Ctx): Verdict {
  const reply = toolsReply(c);
  if (reply === 'none') return nv('No tools/list result; prompts/list is not requested.');
  if ('status' in reply) return reply;
  if (reply.result.resultType === 'input_required') return { status: 'fail', detail: 'tools/list answered with an InputRequiredResult.' };
  return nv('tools/list is not an InputRequiredResult; prompts/list is not requested.');
}

const DECIDE: Record<string, (c: Ctx) => Verdict> = {
  'server-stateless': serverStateless,
  'tools-list': toolsList,
  'resources-list': listedCapability('resources', 'resources/list'),
  'prompts-list': listedCapability('prompts', 'prompts/list'),
  caching,
  'input-required-result-unsupported-methods': unsupportedMethods,
};

function decide(s: ScenarioEntry, c: Ctx): Verdict {
  if (s.decision === 'not-applicable') return { status: 'not-applicable', detail: s.basis };
  if (s.decision === 'not-verified') return nv(s.basis);
  const fn = DECIDE[s.id];
  if (!fn) return nv(s.basis);
  try {
    return fn(c);
  } catch (err) {
    return nv(`The evidence could not be evaluated: ${(err as Error).message.slice(0, 200)}`);
  }
}

export function mapConformance(ev: Evidence, checks: readonly CheckResult[], scenarios: readonly ScenarioEntry[] = SERVER_SCENARIOS): ConformanceReport {
  const c: Ctx = { ev, checks: new Map(checks.map((r) => [r.id, r])), wire: wireOf(ev) };
  const rows = scenarios.map((s): ConformanceScenario => ({ scenario: s.id, ...decide(s, c), checks: [...s.checks] }));
  const counts = { pass: 0, fail: 0, notApplicable: 0, notVerified: 0 };
  for (const r of rows) {
    if (r.status === 'pass') counts.pass += 1;
    else if (r.status === 'fail') counts.fail += 1;
    else if (r.status === 'not-applicable') counts.notApplicable += 1;
    else counts.notVerified += 1;
  }
  const { repository, path, commit } = CONFORMANCE_SOURCE;
  return { suite: CONFORMANCE_SUITE, requirements: CONFORMANCE_REQUIREMENTS, version: CONFORMANCE_MAP_VERSION, source: { repository, path, commit }, scenarios: rows, counts };
}
