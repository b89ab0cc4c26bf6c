// Everything that runs behind the handlers, built once from the Config at start-up:
// the two networks' egress, the scan engine, the scan services (limits, coalescing,
// archive), Redis when configured, the mailer, and the operator's internal pages.
import type { Router } from 'express';
import { Redis } from 'ioredis';
import type { AppContext } from './context.ts';
import { Mailer } from './mail/mailer.ts';
import { transportFor } from './mail/transport.ts';
import { createEgress } from './net/egress.ts';
import { operatorRouter } from './operator/router.ts';
import { createScanner } from './scanner/engine.ts';
import { attachScanServices, buildScanServices } from './scans/services.ts';
import type { SiteScanner } from './scans/types.ts';

export interface Services {
  /** Routers outside the public contract, mounted before validation. */
  internal: Router[];
  /** Stops background work (mailer) and closes connections (Redis). */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Replaces the engine (tests that count upstream scans or inject faults). */
  scanner?: SiteScanner;
  /** Run the outbox mailer in this process (default true). */
  mailer?: boolean;
}

export function createScannerFromConfig(ctx: AppContext): SiteScanner {
  const c = ctx.config;
  return createScanner({
    networks: {
      networkA: createEgress({ name: 'networkA', proxyUrl: c.networkAProxy, allowDirect: true, resolve: c.scanResolve }),
      // Without its proxy networkB is unconfigured: its cells are `unprobed`, never a failure.
      networkB: createEgress({ name: 'networkB', proxyUrl: c.networkBProxy, allowDirect: false, resolve: c.scanResolve }),
    },
    deadlineMs: c.scanDeadlineMs,
    probeTimeoutMs: c.probeTimeoutMs,
  });
}

export function startServices(ctx: AppContext, options: ServiceOptions = {}): Services {
  const c = ctx.config;
  let redis: Redis | undefined;
  if (c.redisUrl) {
    redis = new Redis(c.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false, keyPrefix: c.redisKeyPrefix });
    // Without this listener a lost Redis would be an unhandled 'error' event and crash the process.
    redis.on('error', (err) => ctx.log.warn({ err: err.message }, 'redis unavailable'));
  }
  const mailer = new Mailer({ db: ctx.db, transport: transportFor(c.smtpUrl, c.mailDir), from: c.mailFrom, baseUrl: c.baseUrl, log: ctx.log, now: () => ctx.now() });
  const services = buildScanServices(ctx, {
    scanner: options.scanner ?? createScannerFromConfig(ctx),
    ...(redis ? { redis } : {}),
    onMailQueued: () => mailer.wake(),
  });
  attachScanServices(ctx, services);
  if (options.mailer !== false) mailer.start();
  return {
    internal: [operatorRouter(ctx.db, c.operatorToken)],
    async stop() {
      await mailer.stop();
      redis?.disconnect();
    },
  };
}
