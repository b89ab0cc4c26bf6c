// Standard: MCP server card drafts: SEP-2127 (server-card v1, Server Card WG) and the superseded SEP-1649.
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { ALL, fail, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';
import { ARD_PATH, AI_CATALOG_PATH } from './discovery.ard.ts';

const CARD_PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'] as const;
const CARD_TYPE = 'application/mcp-server-card+json';

type Card = Record<string, unknown>;
const isObj = (v: unknown): v is Card => !!v && typeof v === 'object' && !Array.isArray(v);

/** SEP-2127's card: reverse-DNS name, version, short description, remotes[{type, url}]. */
function sep2127Problems(c: Card): string[] {
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

/** Cards from the well-known paths, then inline cards of an ARD / AI catalog. */
function cards(ev: Parameters<CheckDefinition['evaluate']>[0]): Array<{ where: string; card: Card }> {
  const out: Array<{ where: string; card: Card }> = [];
  for (const p of CARD_PATHS) { const d = parseJson(ev.files[p]); if (isObj(d)) out.push({ where: p, card: d }); }
  for (const p of [ARD_PATH, AI_CATALOG_PATH]) {
    const entries = (parseJson(ev.files[p]) as { entries?: unknown } | undefined)?.entries;
    if (Array.isArray(entries)) for (const e of entries) if (isObj(e) && e.type === CARD_TYPE && isObj(e.data)) out.push({ where: `${p} (inline)`, card: e.data });
  }
  return out;
}

export const check: CheckDefinition = {
  id: 'discovery.mcp-card-shape', name: 'The MCP server card follows a published draft', category: 'discovery', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'MCP server card: SEP-2127 (modelcontextprotocol/modelcontextprotocol PR #2127, types in experimental-ext-server-card); SEP-1649 (issue #1649, superseded)',
  why: 'An MCP client reads a server card to find the endpoint before connecting; an ad-hoc card is read by nobody, and SEP-2127 (the Server Card WG\'s draft) supersedes SEP-1649, which isitagentready still reads (modelcontextprotocol/modelcontextprotocol PR #2127 and issue #1649; types in modelcontextprotocol/experimental-ext-server-card).',
  fix: 'Serve a SEP-2127 card: {"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json", "name": "com.example/server", "version", "description", "remotes": [{"type": "streamable-http", "url": "https://…/mcp"}]}.',
  evaluate(ev) {
    const found = cards(ev);
    if (found.length === 0) {
      if (CARD_PATHS.some((p) => fileState(ev.files[p]) === 'unknown')) return inconclusive('the MCP server card paths could not be fetched');
      return inconclusive(`no MCP server card${CARD_PATHS.map((p) => insteadNote(ev.files[p])).find(Boolean) ?? ''}: not applicable`);
    }
    const judged = found.map(({ where, card }) => ({ where, p2127: sep2127Problems(card), p1649: sep1649Problems(card), claims2127: typeof card.$schema === 'string' && card.$schema.includes('server-card') && !card.$schema.includes('mcp-server-card') }));
    const ok2127 = judged.find((j) => j.p2127.length === 0);
    if (ok2127) return matched('SEP-2127 server card', pass(`${ok2127.where} is a SEP-2127 server card`));
    const ok1649 = judged.find((j) => j.p1649.length === 0);
    if (ok1649) return matched('SEP-1649 (superseded)', partial(750, `${ok1649.where} has the superseded SEP-1649 shape; SEP-2127 readers need name, version, description and remotes`));
    const first = judged[0]!;
    if (first.claims2127) return matched('SEP-2127 server card', fail(`${first.where}: ${first.p2127.join('; ')}`));
    return matched('ad hoc', fail(`${first.where} follows neither draft (SEP-2127: ${first.p2127[0]}; SEP-1649: ${first.p1649[0]})`));
  },
};
