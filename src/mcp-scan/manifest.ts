/**
 * Discovery manifests (mcp.md §6). None is in the core spec, so a manifest is
 * advisory: we record what it declares and compare it with runtime behaviour,
 * never trust it.
 */
import type { Exchange, ManifestEvidence } from './types.ts';

/** Probed in order, stopping at the first hit (SEP-1649, its common variants, and the SEP-2127 AI Catalog). */
export const MANIFEST_PATHS = ['/.well-known/mcp.json', '/.well-known/mcp/server-card.json', '/.well-known/ai-catalog.json', '/.well-known/mcp-server-card.json'];

export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/**
 * The MCP entry of an AI Catalog (SEP-2127 draft): any listed entry whose type
 * names an MCP server card, either inline (`data`) or by reference (`url`).
 * The draft's top-level key is not settled, so every array is searched.
 */
export function catalogEntry(text: string, base: string): { data: Record<string, unknown> } | { url: string } | null {
  const doc = asObject(safeJson(text));
  if (!doc) return null;
  for (const list of Object.values(doc)) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const e = asObject(raw);
      if (!e || typeof e.type !== 'string' || !e.type.includes('mcp-server-card')) continue;
      const data = asObject(e.data);
      if (data) return { data };
      const ref = str(e.url) ?? str(e.cardUrl);
      const url = ref ? resolve(ref, base) : null;
      if (url && url.startsWith('https://')) return { url };
    }
  }
  return null;
}

export type ManifestProbe = 'found' | 'absent' | 'unknown';

/** 404/410 or a page that is not JSON is "absent"; 5xx, timeouts, challenges and auth walls are "unknown". */
export function manifestProbeState(ex: Exchange): ManifestProbe {
  if (ex.verdict !== 'http' && ex.verdict !== 'rpc-other') return 'unknown';
  const s = ex.status ?? 0;
  if (s === 200) return asObject(safeJson(ex.text)) ? 'found' : 'absent';
  if (s === 404 || s === 410 || (s >= 300 && s < 400)) return 'absent';
  return s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 429 ? 'absent' : 'unknown';
}

export function parseManifest(url: string, text: string): ManifestEvidence | null {
  const doc = asObject(safeJson(text));
  if (!doc) return null;
  const schema = typeof doc.$schema === 'string' ? doc.$schema : '';
  const remotes = Array.isArray(doc.remotes) ? doc.remotes.map(asObject).filter((r) => r !== null) : [];
  const remote = remotes.find((r) => r.type === 'streamable-http') ?? remotes[0];
  const remoteVersions = remotes.flatMap((r) => (Array.isArray(r.supportedProtocolVersions) ? r.supportedProtocolVersions : []));
  const transport = asObject(doc.transport);
  const serverInfo = asObject(doc.serverInfo);
  const auth = asObject(doc.authentication);

  if (transport || serverInfo || typeof doc.protocolVersion === 'string') {
    const ep = str(transport?.url) ?? str(transport?.endpoint);
    return {
      url, format: 'sep-1649',
      endpoint: ep ? resolve(ep, url) : remote ? resolve(str(remote.url), url) : null,
      authRequired: typeof auth?.required === 'boolean' ? auth.required : auth?.type === 'none' ? false : null,
      name: str(serverInfo?.name), version: str(serverInfo?.version),
      versions: strings([doc.protocolVersion, ...(Array.isArray(doc.supportedProtocolVersions) ? doc.supportedProtocolVersions : []), ...remoteVersions]),
    };
  }
  if (remotes.length > 0) {
    const posture = asObject(remote?.auth)?.posture;
    return {
      url, format: schema.includes('server.schema.json') ? 'server.json' : 'server-card-v1',
      endpoint: resolve(str(remote?.url), url),
      authRequired: posture === 'required' ? true : posture === 'none' || posture === 'optional' ? false : null,
      name: str(doc.name), version: str(doc.version), versions: strings(remoteVersions),
    };
  }
  const ep = str(doc.endpoint) ?? str(doc.url);
  return { url, format: 'unknown', endpoint: ep ? resolve(ep, url) : null, authRequired: null, name: str(doc.name), version: str(doc.version), versions: [] };
}

function resolve(ref: string | null, base: string): string | null {
  if (!ref) return null;
  try {
    return new URL(ref, base).href;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const strings = (vs: unknown[]): string[] => [...new Set(vs.filter((v): v is string => typeof v === 'string'))];

export function asObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : null;
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
