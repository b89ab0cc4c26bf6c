// GET /.well-known/mcp.json: built once per service (src/services.ts) by running tools/list
// through the real server, so it matches /mcp.
import type { Handler } from './types.ts';

export const getMcpManifest: Handler<'getMcpManifest'> = async (_req, res, ctx) => {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.json(await ctx.services.mcpManifest());
};
