// The SEP-2127 server card, built once per origin at start (src/docs/origin.ts): at /mcp/server-card,
// where the server-card extension reserves it and our MCP catalog lists it, and at the legacy
// /.well-known/mcp/server-card.json older tools still read; /.well-known/mcp.json keeps the SEP-1649
// manifest with its tools.
import type { Handler } from './types.ts';

export const getMcpServerCard: Handler<'getMcpServerCard'> = (_req, res, ctx) => {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.type('application/json; charset=utf-8').send(ctx.services.origin.mcpServerCard);
};

export const getMcpEndpointServerCard: Handler<'getMcpEndpointServerCard'> = (_req, res, ctx) => {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.type('application/mcp-server-card+json; charset=utf-8').send(ctx.services.origin.mcpServerCard);
};

export const getMcpCatalog: Handler<'getMcpCatalog'> = (_req, res, ctx) => {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.type('application/json; charset=utf-8').send(ctx.services.origin.mcpCatalog);
};
