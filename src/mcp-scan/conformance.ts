/**
 * The MCP-server checklist mapped to the conformance suite's required
 * 2026-07-28 server scenarios (data/conformance-2026-07-28.ts). Pure: the
 * scan's evidence and check results in, one row per scenario out, in the
 * requirements file's order. It sends nothing, so it never calls a tool.
 */
import { gate, isObject, needsOpenEndpoint, rpcError, toolObjects } from './checks/util.ts';
import {
  CONFORMANCE_MAP_VERSION, CONFORMANCE_REQUIREMENTS, CONFORMANCE_SOURCE, CONFORMANCE_SUITE, SERVER_SCENARIOS, type ScenarioEntry,
} from './data/conformance-2026-07-28.ts';
import type { CheckResult, ConformanceReport, ConformanceScenario, ConformanceStatus, Evidence, Exchange } from './types.ts';

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

/** A listing's reply: its result, or why it cannot be judged ('none' when not sent). */
function listReply(ex: Exchange | null | undefined, method: string): { result: Record<string, unknown> } | Verdict | 'none' {
  if (!ex) return 'none';
  const g = gate(ex, method);
  if (g) return nv(g.detail);
  const result = ex.verdict === 'rpc' ? ex.rpc?.result : undefined;
  if (result) return { result };
  const err = rpcError(ex.rpc);
  return { status: 'fail', detail: err ? `${method} failed with error ${err.code} ${err.message}.` : `${method} returned no JSON-RPC result (HTTP ${ex.status}).` };
}

/** resources-list and prompts-list: the suite wants an array whose items carry these fields. */
function listedCapability(cap: 'resources' | 'prompts', fields: readonly string[]) {
  const method = `${cap}/list`;
  return (c: Ctx): Verdict => {
    if (c.wire.kind === 'unknown') return nv(c.wire.detail);
    const caps = capsOf(c.ev);
    if (!caps) return nv('The server declared no capabilities the scanner could read.');
    if (caps[cap] === undefined) return { status: 'not-applicable', detail: `The server declares no ${cap} capability.` };
    const reply = listReply(cap === 'resources' ? c.ev.resourcesList : c.ev.promptsList, method);
    if (reply === 'none') return nv(`The server declares ${cap}; ${method} was not sent (request budget spent).`);
    if ('status' in reply) return reply;
    const items = reply.result[cap];
    if (!Array.isArray(items)) return { status: 'fail', detail: `${method} returned no ${cap} array.` };
    const problems = items.flatMap((it, i) => fields.filter((f) => !isObject(it) || !it[f]).map((f) => `item #${i} has no ${f}`));
    if (problems.length) return { status: 'fail', detail: `${method}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; ${problems.length - 5} more` : ''}.` };
    if (c.wire.kind === 'legacy') return nv(`Our ${method} (${items.length} item(s)) is sound at the legacy wire; ${c.wire.detail}`);
    const how = c.wire.dual ? ' (listed over the legacy wire of a dual-era server)' : '';
    return { status: 'pass', detail: `${items.length} item(s), each with ${fields.join(' and ')}${how}.` };
  };
}

/** caching: the SEP-2549 hints on every listing we hold; the suite also wants them on templates/list and resources/read. */
function caching(c: Ctx): Verdict {
  const reply = toolsReply(c);
  if (reply !== 'none' && 'status' in reply) return reply;
  const results: Array<[string, Record<string, unknown>]> = reply === 'none' ? [] : [['tools/list', reply.result]];
  for (const [method, ex] of [['resources/list', c.ev.resourcesList], ['prompts/list', c.ev.promptsList]] as const) {
    const r = listReply(ex, method);
    if (r !== 'none' && !('status' in r)) results.push([method, r.result]);
  }
  if (!results.length) return nv('No listing result to read caching hints from.');
  const bad: string[] = [];
  const missing: string[] = [];
  for (const [method, { ttlMs, cacheScope }] of results) {
    if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && (ttlMs as number) >= 0)) bad.push(`${method}: ttlMs is ${JSON.stringify(ttlMs)}, not an integer >= 0`);
    if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') bad.push(`${method}: cacheScope is ${JSON.stringify(cacheScope)}, not "public" or "private"`);
    const gap = [ttlMs === undefined ? 'ttlMs' : null, cacheScope === undefined ? 'cacheScope' : null].filter((m) => m !== null);
    if (gap.length) missing.push(`${method} lacks ${gap.join(' and ')}`);
  }
  if (bad.length) return { status: 'fail', detail: `${bad.join('; ')}.` };
  if (missing.length && !(c.wire.kind === 'modern' && c.wire.dual)) return { status: 'fail', detail: `${missing.join('; ')} (the sep-2549 caching-hints checks fail).` };
  if (missing.length) return nv(`On the legacy wire: ${missing.join('; ')}; a dual-era server may add them only at ${MODERN}.`);
  return nv(`${results.map(([m]) => m).join(', ')} carry valid ttlMs and cacheScope; the other cacheable endpoints are not requested.`);
}

/** input-required-result-unsupported-methods: tools/list and prompts/list must never be an InputRequiredResult. */
function unsupportedMethods(c: Ctx): Verdict {
  const tools = toolsReply(c);
  if (tools !== 'none' && 'status' in tools) return tools;
  const prompts = listReply(c.ev.promptsList, 'prompts/list');
  const seen = [tools !== 'none' ? ['tools/list', tools.result] : null, prompts !== 'none' && !('status' in prompts) ? ['prompts/list', prompts.result] : null]
    .filter((x): x is [string, Record<string, unknown>] => x !== null);
  const hit = seen.find(([, r]) => r.resultType === 'input_required');
  if (hit) return { status: 'fail', detail: `${hit[0]} answered with an InputRequiredResult.` };
  if (seen.length === 2 && c.wire.kind === 'modern' && !c.wire.dual) return { status: 'pass', detail: 'Neither tools/list nor prompts/list is an InputRequiredResult.' };
  const what = seen.length ? `${seen.map(([m]) => m).join(' and ')}: not an InputRequiredResult` : 'No listing result';
  return nv(`${what}; ${prompts === 'none' ? 'prompts/list was not requested' : 'but not both observed at the 2026-07-28 wire'}.`);
}

const DECIDE: Record<string, (c: Ctx) => Verdict> = {
  'server-stateless': serverStateless,
  'tools-list': toolsList,
  'resources-list': listedCapability('resources', ['uri', 'name']),
  'prompts-list': listedCapability('prompts', ['name', 'description']),
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
