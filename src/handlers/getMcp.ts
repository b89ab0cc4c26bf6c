// GET /mcp: the legacy `endpoint` SSE hint (closes after about a minute), otherwise 406.
import type { Handler } from './types.ts';

// The MCP server (with the SDK) is a third of the start-up imports and few requests need it:
// it loads on the first /mcp request (the module cache keeps it).
const mcp = () => import('../mcp/router.ts');

export const getMcp: Handler<'getMcp'> = async (req, res, ctx) => {
  const { handleMcpGet } = await mcp();
  handleMcpGet(req, res, ctx.services.mcp);
};
