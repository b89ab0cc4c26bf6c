/**
 * Recognising "requires credentials" (spec 2025-11-25 basic/authorization,
 * RFC 9728). We read the challenge and fetch Protected Resource Metadata; we
 * never send a credential and never start OAuth.
 */
import { asObject, safeJson } from './manifest.ts';
import type { Prober } from './probe.ts';
import type { AuthEvidence, Exchange } from './types.ts';

/** `Bearer realm="x", resource_metadata="https://…"` → scheme and lower-cased params. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const m = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*(.*)$/s.exec(header);
  const params: Record<string, string> = {};
  if (!m) return { scheme: '', params };
  const re = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (let p = re.exec(m[2] ?? ''); p; p = re.exec(m[2] ?? '')) {
    params[p[1]!.toLowerCase()] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return { scheme: m[1]!.toLowerCase(), params };
}

/** A PRM document is usable when it names its resource and at least one authorization server (RFC 9728 §2). */
export function validPrm(doc: Record<string, unknown> | null): boolean {
  return !!doc && typeof doc.resource === 'string'
    && Array.isArray(doc.authorization_servers) && doc.authorization_servers.some((s) => typeof s === 'string');
}

/**
 * Discovery order as clients do it: the challenge's resource_metadata URL,
 * then the path-suffixed well-known PRM, then the root one.
 */
export async function probeAuth(prober: Prober, endpoint: string, wall: Exchange): Promise<AuthEvidence> {
  const challenge = wall.headers['www-authenticate'] ?? null;
  const rm = challenge ? parseChallenge(challenge).params.resource_metadata ?? null : null;
  const origin = new URL(endpoint).origin;
  const path = new URL(endpoint).pathname.replace(/\/$/, '');
  const urls = [
    ...(rm && /^https:\/\//i.test(rm) ? [rm] : []),
    `${origin}/.well-known/oauth-protected-resource${path}`,
    `${origin}/.well-known/oauth-protected-resource`,
  ].filter((u, i, all) => all.indexOf(u) === i);
  const out: AuthEvidence = { challenge, resourceMetadataUrl: rm, prmUrl: null, prm: null, prmProbes: [] };
  for (const url of urls) {
    const ex = await prober.get(url, `GET ${new URL(url).pathname}`, 'application/json');
    out.prmProbes.push(ex);
    const doc = ex.status === 200 ? asObject(safeJson(ex.text)) : null;
    if (doc) {
      out.prmUrl = url;
      out.prm = doc;
      if (validPrm(doc)) break;
    }
    if (ex.verdict === 'unreachable' || ex.verdict === 'timeout' || ex.verdict === 'skipped') break;
  }
  return out;
}
