// GET /mcp: the legacy `endpoint` SSE hint (closes after about a minute), otherwise 406.
import { lazy } from './lazy.ts';
import { mcpDepsOf } from './mcpDeps.ts';
import type { Handler } from './types.ts';

const mcp = lazy(() => import('../mcp/router.ts'));

export const getMcp: Handler<'getMcp'> = async (req, res, ctx) => {
  const { handleMcpGet } = await mcp();
  handleMcpGet(req, res, mcpDepsOf(ctx));
};
