// POST /mcp: the app has read the body (x-body-limit 128 KB, lenient JSON), answered 413/415
// and turned parse failures into -32700; the JSON-RPC layer in src/mcp does the rest.
import { handleMcpPost, refuseForeignHost } from '../mcp/router.ts';
import { mcpDepsOf } from './mcpDeps.ts';
import type { Handler } from './types.ts';

export const postMcp: Handler<'postMcp'> = async (req, res, ctx) => {
  const deps = mcpDepsOf(ctx);
  if (refuseForeignHost(req, res, deps)) return;
  await handleMcpPost(req, res, deps);
};
