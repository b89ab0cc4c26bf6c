// POST /scan-mcp: the MCP-server scan service does the work; this maps HTTP in and out.
// The service is built on first use from the config (networkA egress, the shared limits)
// unless start-up or a test attached one.
import type { AppContext } from '../context.ts';
import { createEgress } from '../net/egress.ts';
import { resolveHost } from '../net/resolve.ts';
import { SCANNER_VERSION } from '../mcp-scan/types.ts';
import type { McpScanService } from '../mcp-scan/service.ts';
import { scanServicesOf } from '../scans/services.ts';
import { lazy } from './lazy.ts';
import type { Handler } from './types.ts';

const mcpScan = lazy(() => import('../mcp-scan/service.ts'));

const attached = new WeakMap<AppContext, McpScanService>();

export function attachMcpScanService(ctx: AppContext, service: McpScanService): void {
  attached.set(ctx, service);
}

async function serviceOf(ctx: AppContext): Promise<McpScanService> {
  let s = attached.get(ctx);
  if (!s) {
    const { McpScanService } = await mcpScan();
    const c = ctx.config;
    s = new McpScanService({
      db: ctx.db, log: ctx.log, now: ctx.now, baseUrl: c.baseUrl, excludedDomains: c.excludedDomains, scannerZone: c.scannerZone,
      limits: scanServicesOf(ctx).limits,
      egress: createEgress({ name: 'networkA', proxyUrl: c.networkAProxy, allowDirect: true, resolve: c.scanResolve }),
      resolve: (host) => resolveHost(host, c.scanResolve, c.probeTimeoutMs),
      // Operators of scanned servers can see who asked and read how the scan works.
      scan: { userAgent: `agent-readiness-mcp-scanner/${SCANNER_VERSION} (+${c.baseUrl}/methodology.md)` },
    });
    attached.set(ctx, s);
  }
  return s;
}

export const scanMcp: Handler<'scanMcp'> = async (req, res, ctx) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const out = await (await serviceOf(ctx)).scan({ target: body.target, lead: body.lead, clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
  res.set(out.headers).status(200).json(out.body);
};
