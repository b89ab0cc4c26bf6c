// Standard: MCP server-card extension discovery (modelcontextprotocol/experimental-ext-server-card docs/discovery.md:
// /.well-known/mcp/catalog.json, then the AI Catalog; the card at the URL an entry gives); SEP-2127.
// The preview's definition of discovery.mcp-card (issue 37 item 1): same id, weight and profiles, reads the catalogs.
import { insteadNote } from '../../file-judge.ts';
import { GENERATIONS, LEGACY_CARD_PATHS, MCP_CATALOG_PATH, mcpDiscovery, type Card } from '../../mcp-discovery.ts';
import { check as current } from '../discovery.mcp-card.ts';
import { fail, inconclusive, matched, partial, pass, type CheckDefinition } from '../define.ts';

/** A card in any generation names its server (top-level name, or SEP-1649's serverInfo.name). */
const named = (c: Card): boolean => typeof c.name === 'string' || typeof (c.serverInfo as { name?: unknown } | undefined)?.name === 'string';

export const check: CheckDefinition = {
  id: 'discovery.mcp-card', name: current.name, category: current.category, weight: current.weight, profiles: current.profiles, since: current.since,
  standard: 'MCP server-card extension discovery (experimental-ext-server-card docs/discovery.md, draft): /.well-known/mcp/catalog.json or /.well-known/ai-catalog.json, card at the URL an entry gives (default <endpoint>/server-card); SEP-2127',
  why: 'Clients find an MCP server through its catalog and read the card at the URL the catalog gives; the extension rejects a card under .well-known, so a card only at /.well-known/mcp/server-card.json or /.well-known/mcp.json is found only by older tools.',
  fix: 'Publish /.well-known/mcp/catalog.json ({"specVersion": "draft", "entries": [{"identifier": "urn:air:example.com:mcp:server", "type": "application/mcp-server-card+json", "url": "https://example.com/mcp/server-card"}]}) and serve the card at <your MCP endpoint>/server-card; keep an old well-known card only for older tools.',
  revision: 'reads the MCP catalog (/.well-known/mcp/catalog.json) and the AI Catalog\'s MCP entries and fetches the card at each listed URL; a card only at a legacy path (/.well-known/mcp/server-card.json, /.well-known/mcp.json) earns half credit and says "legacy path"',
  evaluate(ev) {
    const d = mcpDiscovery(ev);
    const found = d.current.find((c) => named(c.card));
    if (found) {
      const by = found.where.endsWith('(inline)') ? found.where : `${found.where} (listed by ${found.via === 'catalog' ? MCP_CATALOG_PATH : '/.well-known/ai-catalog.json'})`;
      return matched(GENERATIONS[found.via], pass(`MCP server card at ${by}`));
    }
    const brokenNote = d.broken.length ? `; the catalog lists ${d.broken.map((b) => `${b.url} (${b.why})`).join(', ')}` : '';
    const legacy = d.legacy.find((c) => named(c.card));
    if (legacy) {
      return matched(GENERATIONS[legacy.via], partial(500, `legacy path: an MCP server card only at ${legacy.where}, a placement the server-card extension rejects; clients that follow the current draft read ${MCP_CATALOG_PATH} and the card at the URL it lists${brokenNote}`));
    }
    if (d.broken.some((b) => b.unknown) || d.catalogs.some((c) => c.state === 'unknown') || d.legacyUnknown) return inconclusive(`MCP discovery paths could not be fetched${brokenNote}`);
    const catalogNote = d.catalogs.find((c) => c.note)?.note;
    const instead = [MCP_CATALOG_PATH, ...LEGACY_CARD_PATHS].map((p) => insteadNote(ev.files[p])).find(Boolean) ?? '';
    return fail(`no MCP server card: no catalog at ${MCP_CATALOG_PATH} lists one and none is at the legacy paths${catalogNote ? ` (${catalogNote})` : ''}${brokenNote}${instead}`);
  },
};
