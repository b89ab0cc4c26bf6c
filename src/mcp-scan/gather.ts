/**
 * The probe sequence (mcp.md §9): every request the scanner makes, in order,
 * serial, within the budget. Nothing here judges; checks read the Evidence.
 * Probes never call a tool (tools/call goes out only without a tool name)
 * and never carry a credential.
 */
import { probeAuth } from './auth.ts';
import { AI_CATALOG_PATH, catalogEntry, MANIFEST_PATHS, manifestProbeState, parseManifest } from './manifest.ts';
import { ACCEPT_BOTH, type Prober } from './probe.ts';
import { validateMcpTarget } from './target.ts';
import type { Evidence, Exchange, ManifestEvidence } from './types.ts';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
const MAX_PAGES = 10;
/** Requests kept back from pagination for the error-semantics and GET probes. */
const RESERVE = 5;

export interface GatherInput {
  input: string;
  host: string;
  /** The endpoint the caller named, or null for a bare domain. */
  url: string | null;
  clientInfo: { name: string; version: string };
  scannerZone?: string;
}

export async function gather(g: GatherInput, prober: Prober): Promise<Evidence> {
  const ev: Evidence = {
    input: g.input, endpoint: null, resolvedVia: null, attempts: [], manifestProbes: [], manifest: null, init: null,
    legacySse: null, negotiatedVersion: null, sessionId: null, notification: null, badVersionInit: null, discover: null,
    toolsPages: [], tools: null, cursorLoop: false, pagesCapped: false, versionHeader: null, methodNotFound: null,
    invalidParams: null, parseError: null, get: null, auth: null, requestCount: 0,
  };

  for (const path of MANIFEST_PATHS) {
    const ex = await prober.get(`https://${g.host}${path}`, `GET ${path}`, 'application/json');
    ev.manifestProbes.push(ex);
    const state = manifestProbeState(ex);
    if (state === 'found' && path === AI_CATALOG_PATH) {
      ev.manifest = await fromCatalog(`https://${g.host}${path}`, ex.text, prober);
      if (ev.manifest) break;
      continue;
    }
    if (state === 'found') {
      ev.manifest = parseManifest(`https://${g.host}${path}`, ex.text);
      break;
    }
    if (ex.verdict === 'unreachable' || ex.verdict === 'timeout') break; // the host is down: spare the budget
  }

  await resolveEndpoint(g, ev, prober);
  const endpoint = ev.endpoint;
  const init = ev.init;
  if (endpoint && init?.verdict === 'policy') ev.auth = await probeAuth(prober, endpoint, init);
  if (endpoint && !ev.legacySse && (init?.verdict === 'rpc' || init?.verdict === 'rpc-other')) {
    await probeProtocol(g, ev, endpoint, prober);
    // Some servers open the handshake but guard tools or other methods: the first wall found gets the PRM lookup.
    const wall = [...ev.toolsPages, ev.methodNotFound, ev.invalidParams, ev.discover].find((x) => x?.verdict === 'policy' && x.status === 401);
    if (wall) ev.auth = await probeAuth(prober, endpoint, wall);
  }
  ev.requestCount = prober.count;
  return ev;
}

/** Candidates: the named URL; for a bare domain, the manifest's endpoint, then the `/mcp` convention. */
async function resolveEndpoint(g: GatherInput, ev: Evidence, prober: Prober): Promise<void> {
  const candidates: Array<{ url: string; via: NonNullable<Evidence['resolvedVia']> }> = [];
  if (g.url) candidates.push({ url: g.url, via: 'input-url' });
  else {
    const declared = ev.manifest?.endpoint;
    // A manifest may point anywhere; it gets the same target rules as user input.
    if (declared) {
      const v = validateMcpTarget(declared, g.scannerZone ? { scannerZone: g.scannerZone } : {});
      if (v.ok && v.url) candidates.push({ url: v.url, via: 'manifest' });
    }
    const convention = `https://${g.host}/mcp`;
    if (!candidates.some((c) => c.url === convention)) candidates.push({ url: convention, via: 'convention' });
  }

  for (const c of candidates) {
    const ex = await prober.post(c.url, `POST ${pathOf(c.url)} initialize`, JSON.stringify(initialize(1, LEGACY_VERSION, g.clientInfo)), 1);
    ev.attempts.push(ex);
    ev.init = ex;
    if (['rpc', 'rpc-other', 'policy'].includes(ex.verdict)) {
      ev.endpoint = c.url;
      ev.resolvedVia = c.via;
      return;
    }
    if (ex.verdict !== 'http') return; // blocked, unreachable, timeout, budget: nothing more to learn here
    // HTTP+SSE fallback: POST refused with 400/404/405, then GET expecting an `endpoint` event.
    if ([400, 404, 405].includes(ex.status ?? 0)) {
      const sse = await prober.get(c.url, `GET ${pathOf(c.url)} (HTTP+SSE fallback)`, 'text/event-stream', { timeoutMs: 3000, stopOnEvent: 'endpoint' });
      if (sse.isSse && /(^|\n)event: ?endpoint/.test(sse.text)) {
        ev.legacySse = sse;
        ev.endpoint = c.url;
        ev.resolvedVia = c.via;
        return;
      }
    }
  }
}

async function probeProtocol(g: GatherInput, ev: Evidence, url: string, prober: Prober): Promise<void> {
  const path = pathOf(url);
  const result = ev.init?.verdict === 'rpc' ? ev.init.rpc?.result : undefined;
  const negotiated = typeof result?.protocolVersion === 'string' ? result.protocolVersion : null;
  ev.negotiatedVersion = negotiated;
  ev.sessionId = ev.init?.headers['mcp-session-id'] ?? null;
  const legacy: Record<string, string> = {};
  if (ev.sessionId) legacy['Mcp-Session-Id'] = ev.sessionId;
  // The header exists from 2025-06-18 on (spec basic/transports#protocol-version-header); ISO dates compare as strings.
  if (negotiated && negotiated >= '2025-06-18') legacy['MCP-Protocol-Version'] = negotiated;

  if (result) {
    ev.notification = await prober.post(url, `POST ${path} notifications/initialized`, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), undefined, legacy);
  }
  ev.discover = await prober.post(url, `POST ${path} server/discover (${MODERN_VERSION})`, JSON.stringify(modern(2, 'server/discover', {}, g.clientInfo)), 2, modernHeaders('server/discover'));
  const modernOk = ev.discover.verdict === 'rpc' && Array.isArray(ev.discover.rpc?.result?.supportedVersions);
  // Speak whichever era the server answered; a modern-only server gets modern envelopes.
  const send = (id: number, method: string, params: Record<string, unknown> | undefined, label: string, extra: Record<string, string> = {}): Promise<Exchange> =>
    !result && modernOk
      ? prober.post(url, label, JSON.stringify(modern(id, method, params ?? {}, g.clientInfo)), id, { ...modernHeaders(method), ...extra })
      : prober.post(url, label, JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }), id, { ...legacy, ...extra });

  ev.badVersionInit = await prober.post(url, `POST ${path} initialize (protocolVersion 1999-01-01)`, JSON.stringify(initialize(3, '1999-01-01', g.clientInfo)), 3);

  const caps = (result?.capabilities ?? (modernOk ? ev.discover.rpc?.result?.capabilities : undefined)) as Record<string, unknown> | undefined;
  if (!caps || caps.tools !== undefined) await listTools(ev, prober, send, path);

  if (negotiated && negotiated >= '2025-06-18') {
    ev.versionHeader = await prober.post(url, `POST ${path} tools/list (MCP-Protocol-Version: 1999-01-01)`,
      JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/list' }), 20, { ...legacy, 'MCP-Protocol-Version': '1999-01-01' });
  }
  ev.methodNotFound = await send(21, 'mcp-scanner/does-not-exist', undefined, `POST ${path} mcp-scanner/does-not-exist`);
  // No tool name: the server must refuse the call, so no tool ever runs.
  ev.invalidParams = await send(22, 'tools/call', {}, `POST ${path} tools/call with params {}`);
  ev.parseError = await prober.post(url, `POST ${path} malformed JSON`, '{"jsonrpc":"2.0",', undefined, legacy);
  // With the session headers: a stateful server may refuse a session-less GET with 400 (spec basic/transports#session-management).
  ev.get = await prober.get(url, `GET ${path} (Accept: text/event-stream)`, 'text/event-stream', { timeoutMs: 2000, firstChunk: true, headers: legacy });
  // Side-effect-free listings for the conformance mapping: last, only for a declared capability, only with budget left.
  if (caps?.resources !== undefined && prober.remaining > 0) ev.resourcesList = await send(23, 'resources/list', undefined, `POST ${path} resources/list`);
  if (caps?.prompts !== undefined && prober.remaining > 0) ev.promptsList = await send(24, 'prompts/list', undefined, `POST ${path} prompts/list`);
}

/** An AI Catalog names the server card inline or by URL (one more request); the card is then read as usual. */
async function fromCatalog(url: string, text: string, prober: Prober): Promise<ManifestEvidence | null> {
  const entry = catalogEntry(text, url);
  if (!entry) return null;
  let card: ManifestEvidence | null;
  if ('data' in entry) card = parseManifest(url, JSON.stringify(entry.data));
  else {
    const ex = await prober.get(entry.url, `GET ${pathOf(entry.url)} (card named by the AI Catalog)`, 'application/json');
    card = ex.status === 200 ? parseManifest(entry.url, ex.text) : null;
  }
  return card ? { ...card, url, format: 'ai-catalog' } : null;
}

type Send = (id: number, method: string, params: Record<string, unknown> | undefined, label: string) => Promise<Exchange>;

async function listTools(ev: Evidence, prober: Prober, send: Send, path: string): Promise<void> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  ev.tools = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    if (page > 0 && prober.remaining <= RESERVE) {
      ev.pagesCapped = true;
      return;
    }
    const ex = await send(10 + page, 'tools/list', cursor === undefined ? undefined : { cursor }, `POST ${path} tools/list${page ? ` (page ${page + 1})` : ''}`);
    ev.toolsPages.push(ex);
    const tools = ex.rpc?.result?.tools;
    if (ex.verdict !== 'rpc' || !Array.isArray(tools)) {
      if (page === 0) ev.tools = null;
      return;
    }
    const next = ex.rpc?.result?.nextCursor;
    if (typeof next === 'string' && seen.has(next)) {
      // The page after a repeated cursor is a re-read; counting its tools would invent duplicates.
      ev.cursorLoop = true;
      return;
    }
    ev.tools.push(...tools);
    if (typeof next !== 'string') return;
    seen.add(next);
    cursor = next;
  }
  ev.pagesCapped = true;
}

function initialize(id: number, protocolVersion: string, clientInfo: GatherInput['clientInfo']) {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo } };
}

/** A 2026-07-28 request: version and capabilities travel in `_meta` (spec 2026-07-28 basic/index). */
function modern(id: number, method: string, params: Record<string, unknown>, clientInfo: GatherInput['clientInfo']) {
  return {
    jsonrpc: '2.0', id, method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': clientInfo,
      },
    },
  };
}

function modernHeaders(method: string): Record<string, string> {
  return { 'MCP-Protocol-Version': MODERN_VERSION, 'Mcp-Method': method, Accept: ACCEPT_BOTH };
}

export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + (u.search ? '?…' : '');
}
