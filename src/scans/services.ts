// Everything the four scan operations need, built once at start-up and hung on the
// AppContext (through a WeakMap, so src/context.ts stays the lead's small shape).
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { resolveHost } from '../net/resolve.ts';
import type { CatalogLookup } from '../report/sections.ts';
import { buildCatalog } from '../scanner/catalog.ts';
import { catalogLookup } from './adapters.ts';
import { Coalescer, memoryRecentStore, redisRecentStore } from './coalesce.ts';
import { createScanLimits, type ScanLimits } from './limits.ts';
import { ScanService } from './service.ts';
import { createTurnstileGate } from './turnstile.ts';
import type { Resolver, SiteScanner } from './types.ts';

export interface ScanServices {
  scans: ScanService;
  /** Shared with POST /scan-mcp and the MCP tool: one budget per domain and per IP. */
  limits: ScanLimits;
  /** why/fix text per check id, from the engine's registry (the catalog of GET /api/checks). */
  catalog: CatalogLookup;
}

export interface BuildScanServicesOptions {
  scanner: SiteScanner;
  /** An ioredis client for REDIS_URL; omit for a single instance (in-memory limits and cache). */
  redis?: Redis;
  catalog?: CatalogLookup;
  /** Defaults to SCAN_RESOLVE answers, then DNS. */
  resolve?: Resolver;
  onMailQueued?: () => void;
}

const registry = new WeakMap<AppContext, ScanServices>();

export function buildScanServices(ctx: AppContext, o: BuildScanServicesOptions): ScanServices {
  const c = ctx.config;
  const resolve: Resolver = o.resolve ?? ((host) => resolveHost(host, c.scanResolve, c.probeTimeoutMs));
  const limits = createScanLimits({ perDomain: c.rateLimitPerDomain, perIp: c.rateLimitPerIp, ...(o.redis ? { redis: o.redis } : {}) });
  const nowMs = () => ctx.now().getTime();
  const coalescer = new Coalescer({
    windowMs: c.coalesceWindowS * 1000,
    store: o.redis ? redisRecentStore(o.redis) : memoryRecentStore(nowMs),
    nowMs,
    ...(o.redis ? { redis: o.redis } : {}),
    lockTtlMs: c.scanDeadlineMs + 10_000,
  });
  const scans = new ScanService({
    db: ctx.db, log: ctx.log, now: () => ctx.now(), baseUrl: c.baseUrl, excludedDomains: c.excludedDomains, scanner: o.scanner, resolve,
    limits, coalescer, turnstile: createTurnstileGate(c.turnstileSecret, c.turnstileVerifyUrl), deadlineMs: c.scanDeadlineMs, mailPerRecipientPerDay: c.mailPerRecipientPerDay,
    ...(o.onMailQueued ? { onMailQueued: o.onMailQueued } : {}),
  });
  return { scans, limits, catalog: o.catalog ?? catalogLookup(buildCatalog()) };
}

export function attachScanServices(ctx: AppContext, services: ScanServices): void {
  registry.set(ctx, services);
}

export function scanServicesOf(ctx: AppContext): ScanServices {
  const s = registry.get(ctx);
  if (!s) throw new Error('scan services are not attached to this AppContext (call attachScanServices at start-up)');
  return s;
}
