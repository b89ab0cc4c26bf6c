import { lazy } from './lazy.ts';
import type { Handler } from './types.ts';

const manifestModule = lazy(() => import('../mcp/manifest.ts'));
let cached: { baseUrl: string; manifest: Promise<Record<string, unknown>> } | undefined;

export const getMcpManifest: Handler<'getMcpManifest'> = async (_req, res, ctx) => {
  // Built by running tools/list through the real server once, so it matches /mcp.
  if (cached?.baseUrl !== ctx.config.baseUrl) {
    const baseUrl = ctx.config.baseUrl;
    cached = { baseUrl, manifest: manifestModule().then((m) => m.buildMcpManifest({ baseUrl })) };
  }
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.json(await cached.manifest);
};
