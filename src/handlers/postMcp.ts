// POST /mcp: the app has read the body (x-body-limit 128 KB, lenient JSON), answered 413/415
// and turned parse failures into -32700; the JSON-RPC layer in src/mcp does the rest.
import { lazy } from './lazy.ts';
import { mcpDepsOf } from './mcpDeps.ts';
import type { Handler } from './types.ts';

const mcp = lazy(() => import('../mcp/router.ts'));

export const postMcp: Handler<'postMcp'> = async (req, res, ctx) => {
  const { handleMcpPost, refuseForeignHost } = await mcp();
  const deps = mcpDepsOf(ctx);
  if (refuseForeignHost(req, res, deps)) return;
  await handleMcpPost(req, res, deps);
};
