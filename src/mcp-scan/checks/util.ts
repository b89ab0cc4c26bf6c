/** Shared helpers for the pure check functions. */
import type { CheckEvidence, Evidence, Exchange, Outcome, RpcReply } from '../types.ts';

export const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25';
export const JSONRPC_ERRORS = 'https://www.jsonrpc.org/specification#error_object';

export const pass = (detail: string, ex?: Exchange | null): Outcome => ({ status: 'pass', detail, ...withEvidence(ex) });
export const fail = (detail: string, ex?: Exchange | null): Outcome => ({ status: 'fail', detail, ...withEvidence(ex) });
export const inconclusive = (reason: NonNullable<Outcome['reason']>, detail: string, ex?: Exchange | null): Outcome =>
  ({ status: 'inconclusive', reason, detail, ...withEvidence(ex) });

function withEvidence(ex: Exchange | null | undefined): { evidence?: CheckEvidence } {
  if (!ex || ex.verdict === 'skipped') return {};
  const evidence: CheckEvidence = { request: ex.label };
  if (ex.status !== null) evidence.httpStatus = ex.status;
  if (ex.contentType) evidence.contentType = ex.contentType.slice(0, 200);
  const snippet = ex.text.trim().slice(0, 500);
  if (snippet) evidence.snippet = snippet;
  else if (ex.errorCode) evidence.snippet = ex.errorCode;
  return { evidence };
}

/**
 * Tri-state gate for one exchange: anything the vantage could not measure is
 * inconclusive, never a fail (service spec "POST /scan-mcp").
 */
export function gate(ex: Exchange | null, what: string): Outcome | null {
  if (!ex) return inconclusive('not_applicable', `${what}: not probed.`);
  switch (ex.verdict) {
    case 'policy': return inconclusive('policy', `${what}: the server requires credentials (HTTP ${ex.status}); access policy, not a fault.`, ex);
    case 'blocked': return inconclusive('blocked', `${what}: a WAF or bot-challenge page answered (HTTP ${ex.status}).`, ex);
    case 'unreachable': return inconclusive('unreachable', `${what}: the server could not be reached (${ex.errorCode}).`, ex);
    case 'timeout': return inconclusive('timeout', `${what}: no answer in time.`, ex);
    case 'skipped': return inconclusive('ambiguous', `${what}: not sent; the request budget was spent.`);
    default: return null;
  }
}

/**
 * Gate for checks that need an open Streamable HTTP endpoint: a credential
 * wall makes them inherit `policy`; a legacy HTTP+SSE-only server makes
 * them `legacy_transport`.
 */
export function needsOpenEndpoint(ev: Evidence, what: string): Outcome | null {
  if (!ev.endpoint) {
    const g = gate(ev.init, what);
    return g ?? inconclusive('not_applicable', `${what}: no MCP endpoint was found.`);
  }
  if (ev.legacySse) return inconclusive('legacy_transport', `${what}: the server only speaks the deprecated HTTP+SSE transport.`, ev.legacySse);
  return gate(ev.init, what);
}

export function rpcError(rpc: RpcReply | null): { code: number | null; message: string } | null {
  if (!rpc?.error) return null;
  return { code: typeof rpc.error.code === 'number' ? rpc.error.code : null, message: typeof rpc.error.message === 'string' ? rpc.error.message : '' };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Versions published by the spec (spec "Versioning"); 2024-10-07 was an SDK pre-release. */
export const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** The tools gathered, as objects; null when the listing never succeeded. */
export function toolObjects(ev: Evidence): Record<string, unknown>[] | null {
  return ev.tools === null ? null : ev.tools.filter(isObject);
}

/** A URL for details and evidence: its query may carry a key, so it is never echoed. */
export function redact(url: string | null): string {
  if (!url) return '(none)';
  try {
    const u = new URL(url);
    return u.search ? `${u.origin}${u.pathname}?…` : u.href;
  } catch {
    return '(unparseable URL)';
  }
}

/** Origin and path only, for comparing endpoints. */
export function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}
