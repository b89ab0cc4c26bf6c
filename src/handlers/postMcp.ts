// POST /mcp: the app has read the body (x-body-limit 128 KB, lenient JSON), answered 413/415
// and turned parse failures into -32700; the JSON-RPC layer in src/mcp does the rest.
import type { Handler } from './types.ts';

// The MCP server (with the SDK) is a third of the start-up imports and few requests need it:
// it loads on the first /mcp request (the module cache keeps it).
const mcp = () => import('../mcp/router.ts');

export const postMcp: Handler<'postMcp'> = async (req, res, ctx) => {
  const { handleMcpPost, refuseForeignHost } = await mcp();
  const deps = ctx.services.mcp;
  if (refuseForeignHost(req, res, deps)) return;
  await handleMcpPost(req, res, deps);
};
