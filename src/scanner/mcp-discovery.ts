/**
 * Where a site's MCP server cards are, generation by generation (shared/research/discovery-2026-12.md §1,
 * modelcontextprotocol/experimental-ext-server-card docs/discovery.md):
 *   - the MCP catalog `/.well-known/mcp/catalog.json` ({specVersion, entries[{identifier, type, url}]}), each
 *     entry's card fetched from its `url` (the reserved default is `<streamable-http-url>/server-card`);
 *   - the AI Catalog `/.well-known/ai-catalog.json` the extension moved to on 2026-07-20 (#42), whose MCP entries
 *     carry the card by `url` or inline as `data`;
 *   - the legacy paths the current draft rejects, still read because older tools publish there:
 *     `/.well-known/mcp/server-card.json` (SEP-2127 before the catalog) and `/.well-known/mcp.json` (the first
 *     discovery draft, SEP-1649's manifest shape).
 * Pure functions of the evidence; the follow-ups that fetch card URLs are planned here too.
 */
import { fileState, parseJson, type ScanEvidence } from './evidence.ts';
import { SERVER_CARD_SCHEMA, SERVER_CARD_SCHEMA_ID } from './data/mcp-server-card-schema.ts';
import { validateSubset } from './schema-subset.ts';

export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';
export const AI_CATALOG = '/.well-known/ai-catalog.json';
export const LEGACY_CARD_PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'] as const;
export const CARD_TYPE = 'application/mcp-server-card+json';
/** Card URLs followed from the catalogs, in catalog order (a catalog may list servers on other hosts). */
export const MCP_CARD_FOLLOW = 3;
export const MCP_CARD_KEY = 'mcp-card:';

export const GENERATIONS = {
  catalog: 'MCP catalog (/.well-known/mcp/catalog.json, server-card extension draft)',
  aiCatalog: 'AI Catalog entry (/.well-known/ai-catalog.json, server-card extension since 2026-07-20)',
  legacyCard: 'legacy path: SEP-2127 before the catalog (/.well-known/mcp/server-card.json)',
  legacyManifest: 'legacy path: first discovery draft (/.well-known/mcp.json)',
} as const;

export type Card = Record<string, unknown>;
const isObj = (v: unknown): v is Card => !!v && typeof v === 'object' && !Array.isArray(v);

export interface FoundCard {
  /** Where the card was read: a URL, a path, or "<catalog path> (inline)". */
  where: string;
  card: Card;
  via: keyof typeof GENERATIONS;
}

export interface CatalogRead {
  path: string;
  state: 'present' | 'absent' | 'unknown' | 'invalid';
  /** Entries of the card type, with the URL resolved against the catalog's own URL. */
  urls: string[];
  inline: Card[];
  note: string;
}

function readCatalog(ev: ScanEvidence, path: string): CatalogRead {
  const view = ev.files[path];
  const state = fileState(view);
  const base: CatalogRead = { path, state: state === 'present' ? 'invalid' : state, urls: [], inline: [], note: '' };
  if (state !== 'present') return base;
  const doc = parseJson(view);
  if (!isObj(doc) || !Array.isArray(doc.entries)) return { ...base, note: `${path} is not a catalog ({specVersion, entries[]})` };
  const out: CatalogRead = { ...base, state: 'present' };
  for (const e of doc.entries) {
    if (!isObj(e) || e.type !== CARD_TYPE) continue; // clients ignore entries of another type
    if (isObj(e.data)) out.inline.push(e.data);
    else if (typeof e.url === 'string') {
      try {
        const u = new URL(e.url, view!.record.finalUrl || view!.record.url);
        if (u.protocol === 'https:' || u.protocol === 'http:') out.urls.push(u.href);
      } catch { /* not a URL: the entry is unusable */ }
    }
  }
  return out;
}

export function mcpCatalogs(ev: ScanEvidence): CatalogRead[] {
  return [readCatalog(ev, MCP_CATALOG_PATH), readCatalog(ev, AI_CATALOG)];
}

/** The card URLs round two fetches: the MCP catalog's first, then the AI Catalog's, deduplicated and capped. */
export function cardUrlsToFollow(ev: ScanEvidence): string[] {
  return [...new Set(mcpCatalogs(ev).flatMap((c) => c.urls))].slice(0, MCP_CARD_FOLLOW);
}

export interface McpDiscovery {
  catalogs: CatalogRead[];
  /** Cards reached the way the current draft says (a catalog's url or inline data). */
  current: FoundCard[];
  /** Card URLs a catalog listed that did not give a card, with why. */
  broken: Array<{ url: string; why: string; unknown: boolean }>;
  legacy: FoundCard[];
  /** A legacy path could not be fetched (a denial, a 5xx). */
  legacyUnknown: boolean;
}

export function mcpDiscovery(ev: ScanEvidence): McpDiscovery {
  const catalogs = mcpCatalogs(ev);
  const current: FoundCard[] = [];
  const broken: McpDiscovery['broken'] = [];
  const followed = new Set(cardUrlsToFollow(ev));
  for (const c of catalogs) {
    const via = c.path === MCP_CATALOG_PATH ? 'catalog' : 'aiCatalog';
    for (const card of c.inline) current.push({ where: `${c.path} (inline)`, card, via });
    for (const url of c.urls) {
      if (!followed.has(url)) continue;
      // A card at a URL round one already read (a catalog naming a legacy path) is not fetched twice.
      const view = ev.followups[`${MCP_CARD_KEY}${url}`] ?? Object.values(ev.files).find((f) => f.record.url === url);
      const doc = parseJson(view);
      if (isObj(doc)) current.push({ where: url, card: doc, via });
      else broken.push({ url, why: !view ? 'not fetched' : fileState(view) === 'unknown' ? 'could not be fetched' : fileState(view) === 'absent' ? `absent (status ${view.status})` : 'not JSON', unknown: !view || fileState(view) === 'unknown' });
    }
  }
  const legacy: FoundCard[] = [];
  for (const p of LEGACY_CARD_PATHS) {
    const d = parseJson(ev.files[p]);
    if (isObj(d)) legacy.push({ where: p, card: d, via: p === '/.well-known/mcp.json' ? 'legacyManifest' : 'legacyCard' });
  }
  return { catalogs, current, broken, legacy, legacyUnknown: LEGACY_CARD_PATHS.some((p) => fileState(ev.files[p]) === 'unknown') };
}

/** Problems of a card against the pinned Server Card schema (data/mcp-server-card-schema.ts); empty when valid. */
export function serverCardProblems(card: unknown): string[] {
  return validateSubset(SERVER_CARD_SCHEMA, card).slice(0, 3);
}

/** The card claims the current (v2) schema. */
export const claimsV2 = (card: Card): boolean => card.$schema === SERVER_CARD_SCHEMA_ID;
