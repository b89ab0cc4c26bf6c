// Builds the scan services (the scan service, limits, coalescing, catalog) from the config;
// called once by the composition root (src/services.ts), never looked up.
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { resolveHost } from '../net/resolve.ts';
import type { CatalogLookup } from '../report/sections.ts';
import { everyCatalogCheck } from '../scanner/catalog.ts';
import { ScanAdmission, type AdmissionOptions } from './admission.ts';
import { catalogLookup } from './adapters.ts';
import { Coalescer, memoryRecentStore, redisRecentStore } from './coalesce.ts';
import { createScanLimits } from './limits.ts';
import { ScanService } from './service.ts';
import { createTurnstileGate } from './turnstile.ts';
import type { ScanServices } from './bundle.ts';
import type { Resolver, SiteScanner } from './types.ts';

export type { ScanServices };

export interface BuildScanServicesOptions {
  scanner: SiteScanner;
  /** An ioredis client for REDIS_URL; omit for a single instance (in-memory limits and cache). */
  redis?: Redis;
  catalog?: CatalogLookup;
  /** Defaults to SCAN_RESOLVE answers, then DNS. */
  resolve?: Resolver;
  onMailQueued?: () => void;
  onArchived?: (domain: string) => void;
  /** The admission controller's settings (tests script the loop's utilisation). */
  admission?: AdmissionOptions;
}

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
  const admission = new ScanAdmission(o.admission);
  const turnstile = createTurnstileGate(c.turnstileSecret, c.turnstileVerifyUrl);
  const scans = new ScanService({
    db: ctx.db, log: ctx.log, now: () => ctx.now(), baseUrl: c.baseUrl, excludedDomains: c.excludedDomains, scanner: o.scanner, resolve,
    limits, coalescer, admission, turnstile, deadlineMs: c.scanDeadlineMs, mailPerRecipientPerDay: c.mailPerRecipientPerDay,
    ...(o.onMailQueued ? { onMailQueued: o.onMailQueued } : {}),
    ...(o.onArchived ? { onArchived: o.onArchived } : {}),
  });
  return { scans, admission, limits, turnstile, catalog: o.catalog ?? catalogLookup({ checks: everyCatalogCheck() }) };
}
