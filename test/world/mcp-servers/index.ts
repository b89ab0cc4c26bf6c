/**
 * The MCP test servers, as extra sites of the test world (test/world), each
 * under its own host label and served over the world's HTTPS on port 443:
 *
 *   const servers = mcpServers();
 *   const world = await startWorld({ scenarios: [], handlers: servers.handlers });
 *   scanMcpServer(world.domain('mcp-good'), { egress: world.egress().networkA });
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExtraHandler } from '../index.ts';
import { WORLD_SUFFIX } from '../site.ts';
import { broken } from './broken.ts';
import { brokenSdk } from './broken-sdk.ts';
import { catalog } from './catalog.ts';
import { goodStateless } from './good-stateless.ts';
import { keyed } from './keyed.ts';
import { legacySse } from './legacy-sse.ts';
import { modernOurs } from './modern.ts';
import { modernOnly } from './modern-only.ts';
import { oauth } from './oauth.ts';
import { paged } from './paged.ts';
import { stateful } from './stateful.ts';
import { toolsAuth } from './tools-auth.ts';
import { waf } from './waf.ts';

export const MCP_LABELS = ['mcp-good', 'mcp-stateful', 'mcp-oauth', 'mcp-legacy-sse', 'mcp-broken', 'mcp-waf', 'mcp-modern', 'mcp-modern-only', 'mcp-paged', 'mcp-cursor-loop', 'mcp-tools-auth', 'mcp-keyed', 'mcp-broken-sdk', 'mcp-catalog'] as const;

/** The world calls handlers as (req, res, info); an express app would take `info` for `next`. */
const site = (app: (req: IncomingMessage, res: ServerResponse) => void): ExtraHandler => (req, res) => app(req, res);

export function mcpServers(): { handlers: Record<string, ExtraHandler>; close(): Promise<void> } {
  const st = stateful();
  const legacy = legacySse();
  const handlers: Record<(typeof MCP_LABELS)[number], ExtraHandler> = {
    'mcp-good': site(goodStateless()),
    'mcp-stateful': site(st.app),
    'mcp-oauth': site(oauth(`mcp-oauth.${WORLD_SUFFIX}`)),
    'mcp-legacy-sse': site(legacy.app),
    'mcp-broken': site(broken()),
    'mcp-waf': waf,
    'mcp-modern': site(modernOurs(`mcp-modern.${WORLD_SUFFIX}`)),
    'mcp-paged': site(paged()),
    'mcp-cursor-loop': site(paged(true)),
    'mcp-keyed': site(keyed()),
    'mcp-broken-sdk': site(brokenSdk()),
    'mcp-catalog': site(catalog(`mcp-catalog.${WORLD_SUFFIX}`)),
    'mcp-tools-auth': site(toolsAuth(`mcp-tools-auth.${WORLD_SUFFIX}`)),
    'mcp-modern-only': site(modernOnly(`mcp-modern-only.${WORLD_SUFFIX}`)),
  };
  return { handlers, close: async () => { await st.close(); await legacy.close(); } };
}
