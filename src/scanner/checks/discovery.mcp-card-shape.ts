// Standard: MCP Server Card, SEP-2127 (modelcontextprotocol/modelcontextprotocol PR #2127), schema pinned from
// modelcontextprotocol/experimental-ext-server-card schema.json (data/mcp-server-card-schema.ts); SEP-1649 (superseded).
import { insteadNote } from '../file-judge.ts';
import { parseJson } from '../evidence.ts';
import { claimsV2, CARD_TYPE, LEGACY_CARD_PATHS, MCP_CATALOG_PATH, mcpDiscovery, serverCardProblems, type Card, type FoundCard } from '../mcp-discovery.ts';
import { SERVER_CARD_SCHEMA_SOURCE } from '../data/mcp-server-card-schema.ts';
import { ALL, fail, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';
import { ARD_PATH } from './discovery.ard.ts';

const isObj = (v: unknown): v is Card => !!v && typeof v === 'object' && !Array.isArray(v);

/** SEP-2127 as its v1 schema had it: reverse-DNS name, version, short description, remotes[{type, url}]. */
function v1Problems(c: Card): string[] {
  const out: string[] = [];
  if (typeof c.name !== 'string' || !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(c.name)) out.push('name is not reverse-DNS "namespace/name"');
  if (typeof c.version !== 'string') out.push('version is missing');
  if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > 100) out.push('description must be 1-100 characters');
  const remotes = c.remotes;
  if (!Array.isArray(remotes) || remotes.length === 0) out.push('remotes is empty');
  else if (remotes.some((r: unknown) => !isObj(r) || !['streamable-http', 'sse'].includes(String(r.type)) || typeof r.url !== 'string')) out.push('a remote lacks type (streamable-http or sse) or url');
  return out;
}

/** SEP-1649's card: serverInfo{name, version} and transport{type, endpoint}. */
function sep1649Problems(c: Card): string[] {
  const out: string[] = [];
  const info = c.serverInfo;
  if (!isObj(info) || typeof info.name !== 'string' || typeof info.version !== 'string') out.push('serverInfo.name and .version are missing');
  const t = c.transport;
  if (!isObj(t) || typeof t.type !== 'string' || typeof t.endpoint !== 'string') out.push('transport.type and .endpoint are missing');
  return out;
}

/** Cards where the current draft puts them, then inline cards of an ARD catalog, then the legacy paths. */
function cards(ev: Parameters<CheckDefinition['evaluate']>[0]): { found: Array<FoundCard & { legacy: boolean }>; unknown: boolean } {
  const d = mcpDiscovery(ev);
  const found: Array<FoundCard & { legacy: boolean }> = d.current.map((c) => ({ ...c, legacy: false }));
  const entries = (parseJson(ev.files[ARD_PATH]) as { entries?: unknown } | undefined)?.entries;
  if (Array.isArray(entries)) for (const e of entries) if (isObj(e) && e.type === CARD_TYPE && isObj(e.data)) found.push({ where: `${ARD_PATH} (inline)`, card: e.data, via: 'aiCatalog', legacy: false });
  for (const c of d.legacy) found.push({ ...c, legacy: true });
  return { found, unknown: d.legacyUnknown || d.broken.some((b) => b.unknown) || d.catalogs.some((c) => c.state === 'unknown') };
}

const LEGACY = ' (legacy path)';

export const check: CheckDefinition = {
  id: 'discovery.mcp-card-shape', name: 'The MCP server card follows a published draft', category: 'discovery', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: `MCP Server Card: SEP-2127 (modelcontextprotocol/modelcontextprotocol PR #2127), v2 schema (${SERVER_CARD_SCHEMA_SOURCE}); SEP-1649 (issue #1649, superseded)`,
  why: 'An MCP client reads a server card to find the endpoint before connecting; an ad-hoc card is read by nobody. The server-card extension publishes the card\'s JSON Schema (v2: $schema, reverse-DNS name, version, description; remotes optional) and supersedes the v1 schema and SEP-1649, which isitagentready still reads.',
  fix: 'Serve a card valid against https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json: {"$schema": "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json", "name": "com.example/server", "version": "1.0.0", "description": "…", "remotes": [{"type": "streamable-http", "url": "https://…/mcp"}]}, at <endpoint>/server-card, listed by /.well-known/mcp/catalog.json.',
  evaluate(ev) {
    const { found, unknown } = cards(ev);
    if (found.length === 0) {
      if (unknown) return inconclusive('the MCP catalog or server card paths could not be fetched');
      return inconclusive(`no MCP server card${[MCP_CATALOG_PATH, ...LEGACY_CARD_PATHS].map((p) => insteadNote(ev.files[p])).find(Boolean) ?? ''}: not applicable`);
    }
    const judged = found.map((f) => ({ ...f, v2: serverCardProblems(f.card), v1: v1Problems(f.card), p1649: sep1649Problems(f.card) }));
    const at = (j: { where: string; legacy: boolean }) => (j.legacy ? `${j.where}, a legacy path the server-card extension rejects,` : j.where);
    const ok2 = judged.find((j) => j.v2.length === 0 && !j.legacy) ?? judged.find((j) => j.v2.length === 0);
    if (ok2 && !ok2.legacy) return matched('SEP-2127 server card v2', pass(`${at(ok2)} is a SEP-2127 server card valid against the v2 schema`));
    if (ok2) return matched(`SEP-2127 server card v2${LEGACY}`, partial(750, `${at(ok2)} holds a SEP-2127 server card valid against the v2 schema; list it in ${MCP_CATALOG_PATH} at <endpoint>/server-card`));
    const ok1 = judged.find((j) => j.v1.length === 0);
    if (ok1) return matched(`SEP-2127 server card v1 (superseded)${ok1.legacy ? LEGACY : ''}`, partial(750, `${at(ok1)} has the v1 card shape; the v2 schema says: ${ok1.v2.join('; ')}`));
    const ok1649 = judged.find((j) => j.p1649.length === 0);
    if (ok1649) return matched(`SEP-1649 (superseded)${ok1649.legacy ? LEGACY : ''}`, partial(750, `${at(ok1649)} has the superseded SEP-1649 shape; SEP-2127 readers need $schema, name, version and description`));
    const first = judged[0]!;
    if (claimsV2(first.card)) return matched(`SEP-2127 server card v2${first.legacy ? LEGACY : ''}`, fail(`${at(first)} claims the v2 schema but ${first.v2.join('; ')}`));
    return matched(`ad hoc${first.legacy ? LEGACY : ''}`, fail(`${at(first)} follows neither draft (SEP-2127 v2: ${first.v2[0]}; SEP-1649: ${first.p1649[0]})`));
  },
};
