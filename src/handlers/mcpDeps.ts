// McpDeps for the handler table: the same scan service, archive and catalog as the
// REST handlers, built once per AppContext.
import type { AppContext } from '../context.ts';
import type { McpDeps } from '../mcp/types.ts';
import { buildCatalog } from '../scanner/catalog.ts';
import { mcpScanDeps } from '../scans/adapters.ts';
import { scanServicesOf } from '../scans/services.ts';

const cache = new WeakMap<AppContext, McpDeps>();

/** Replaces the deps for one context (tests shorten the GET stream, swap services). */
export function attachMcpDeps(ctx: AppContext, overrides: Partial<McpDeps>): void {
  cache.set(ctx, { ...mcpDepsOf(ctx), ...overrides });
}

export function mcpDepsOf(ctx: AppContext): McpDeps {
  let deps = cache.get(ctx);
  if (!deps) {
    let catalog: ReturnType<typeof buildCatalog> | undefined;
    deps = {
      ...mcpScanDeps(ctx, scanServicesOf(ctx)),
      listChecks: () => (catalog ??= buildCatalog()),
      baseUrl: ctx.config.baseUrl,
    };
    cache.set(ctx, deps);
  }
  return deps;
}
