// POST /scan-mcp: the MCP-server scan service (built at start-up, src/services.ts) does the
// work; this maps HTTP in and out.
import type { Handler } from './types.ts';

export const scanMcp: Handler<'scanMcp'> = async (req, res, ctx) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const out = await ctx.services.mcpScan.scan({ target: body.target, lead: body.lead, clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
  res.set(out.headers).status(200).json(out.body);
};
