// GET /mcp: the legacy `endpoint` SSE hint (closes after about a minute), otherwise 406.
import { handleMcpGet } from '../mcp/router.ts';
import { mcpDepsOf } from './mcpDeps.ts';
import type { Handler } from './types.ts';

export const getMcp: Handler<'getMcp'> = (req, res, ctx) => {
  handleMcpGet(req, res, mcpDepsOf(ctx));
};
