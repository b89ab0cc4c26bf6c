// GET /.well-known/mcp/server-card.json: the SEP-2127 server card, built once per origin at
// start (src/docs/origin.ts); /.well-known/mcp.json keeps the SEP-1649 manifest with its tools.
import type { Handler } from './types.ts';

export const getMcpServerCard: Handler<'getMcpServerCard'> = (_req, res, ctx) => {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.type('application/json; charset=utf-8').send(ctx.services.origin.mcpServerCard);
};
