// One call for start-up: the scan services on the context, the mailer draining the outbox,
// and (with REDIS_URL) the shared Redis client. close() undoes all of it, mail in flight
// first.
import { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { Mailer } from '../mail/mailer.ts';
import { transportFor } from '../mail/transport.ts';
import type { CatalogLookup } from '../report/sections.ts';
import { attachScanServices, buildScanServices, type ScanServices } from './services.ts';
import type { SiteScanner } from './types.ts';

export interface ScanRuntime {
  services: ScanServices;
  mailer: Mailer;
  redis: Redis | undefined;
  close(): Promise<void>;
}

export function startScanRuntime(ctx: AppContext, o: { scanner: SiteScanner; catalog?: CatalogLookup; startMailer?: boolean }): ScanRuntime {
  const c = ctx.config;
  const redis = c.redisUrl ? new Redis(c.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : undefined;
  redis?.on('error', (err) => ctx.log.warn({ err: err.message }, 'redis error; limits fall back to this instance'));
  const mailer = new Mailer({ db: ctx.db, transport: transportFor(c.smtpUrl, c.mailDir), from: c.mailFrom, baseUrl: c.baseUrl, log: ctx.log, now: () => ctx.now() });
  const services = buildScanServices(ctx, {
    scanner: o.scanner,
    ...(redis ? { redis } : {}),
    ...(o.catalog ? { catalog: o.catalog } : {}),
    onMailQueued: () => mailer.wake(),
  });
  attachScanServices(ctx, services);
  if (o.startMailer !== false) mailer.start();
  return {
    services,
    mailer,
    redis,
    async close() {
      await mailer.stop();
      redis?.disconnect();
    },
  };
}
