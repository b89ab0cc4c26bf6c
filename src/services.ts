// The composition root: every service behind the handlers, built once from the Config at
// start-up and handed to createApp; nothing is looked up later or wired inside a handler.
// It owns what it opens (the networks' egresses, Redis, the mailer) and closes all of it on
// stop(). Tests replace parts through ServiceOptions, never by reaching into modules.
import type { Router } from 'express';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { AppContext } from './context.ts';
import type { Documents } from './docs/documents.ts';
import { originFiles, type OriginFiles } from './docs/origin.ts';
import { Mailer } from './mail/mailer.ts';
import type { MailTransport } from './mail/transport.ts';
import type { McpScanOutcome } from './mcp-scan/service.ts';
import { SCANNER_VERSION } from './mcp-scan/types.ts';
import type { McpDeps } from './mcp/types.ts';
import type { Egress } from './net/egress.ts';
import { ApiKeys } from './keys/service.ts';
import { createJobEngine, type JobEngine } from './jobs/index.ts';
import { BatchService } from './batches/service.ts';
import { localAddressLimiter, redisAddressLimiter } from './batches/address-limit.ts';
import { WatchService } from './watches/service.ts';
import { PartnerConsole } from './console/service.ts';
import { WatchRunner } from './watches/runner.ts';
import { ConfirmationExpiry } from './watches/expiry.ts';
import { loadWebhookMasterKey } from './webhooks/master-key.ts';
import { resolveHost } from './net/resolve.ts';
import { operatorRouter } from './operator/router.ts';
import { ReadCaches } from './report/read-caches.ts';
import type { ProbeKey } from './signing/keys.ts';
import { loadProbeKey } from './signing/stored-key.ts';
import { buildCatalogs, type PublishedCatalog } from './scanner/catalog.ts';
import { RUBRIC_VERSION } from './scanner/versions.ts';
import { catalogLookup, mcpScanDeps } from './scans/adapters.ts';
import { attachCliVantage, type Attached } from './scans/cli-vantage.ts';
import { ProgressBoard, type ProgressBoardOptions } from './scans/progress-board.ts';
import { progressSubscriber, RedisProgressShare } from './scans/progress-share.ts';
import { buildScanServices, type BuildScanServicesOptions } from './scans/services.ts';
import type { ScanServices } from './scans/bundle.ts';
import type { ScanService } from './scans/service.ts';
import type { CatalogLookup } from './report/sections.ts';
import type { SiteScanner } from './scans/types.ts';
import { WebhookDeliveryService, type WebhookDeliveries } from './webhooks/deliveries.ts';
import { webhookSecrets } from './webhooks/master-key.ts';
import { localWatchSlots, redisWatchSlots } from './webhooks/watch-slots.ts';
import { watchIsActive } from './storage/queries/watches.ts';
import { ChangeFeed, PRUNE_QUEUE } from './feed/service.ts';
import { ServiceMetrics, timedScan } from './metrics/registry.ts';
import { QUEUE as BATCH_QUEUE } from './batches/service.ts';
import { QUEUE as WATCH_QUEUE } from './watches/runner.ts';
import { SWEEP_QUEUE } from './watches/expiry.ts';
import { QUEUE as WEBHOOK_QUEUE } from './webhooks/deliveries.ts';

const require = createRequire(import.meta.url);

/** POST /scan-mcp's service; its module (and the MCP SDK client) loads on the first scan. */
export interface McpScanner {
  scan(input: { target: unknown; lead: unknown; clientIp: string }): Promise<McpScanOutcome>;
}

export interface AppServices {
  /** Starts the background workers the options ask for; once (later calls do nothing). */
  startWorkers(): void;
  /** Site scans (src/scans/service.ts): the form, POST /scan, batches, watches and the MCP tool all scan through it. */
  scans: ScanService;
  /** why/fix text per check id (the catalog of GET /api/checks), for report pages and mails. */
  catalog: CatalogLookup;
  /** The MCP server's tools: the same scan service, archive and catalog as the REST handlers. */
  mcp: McpDeps;
  mcpScan: McpScanner;
  /** The /.well-known/mcp.json document, built on first request (it loads the MCP SDK) and kept. */
  mcpManifest(): Promise<Record<string, unknown>>;
  /** POST /r/{scanId}/cli-vantage, dropping the cached page it changes. */
  attachCliVantage(scanId: unknown, body: unknown): Promise<Attached>;
  reads: ReadCaches;
  /** GET /api/checks: every published rubric's catalog by version, the current one first. */
  catalogs: ReadonlyMap<string, PublishedCatalog>;
  /** The web form's scan progress by progress id (GET /scan/progress/{progressId}). */
  progress: ProgressBoard;
  /** The information documents (methodology, llms.txt, privacy, terms…), built on first request (Markdown rendering) and kept. */
  documents(): Promise<Documents>;
  /** The service's Web Bot Auth key (configured, or generated once and stored), loaded on first use. */
  probeKey(): Promise<ProbeKey>;
  /** robots.txt, sitemap.xml, security.txt and the API catalog of this service's own origin. */
  origin: OriginFiles;
  /** Partner API keys: authenticate a bearer, spend a key's daily budget (src/keys/service.ts). */
  keys: ApiKeys;
  /** Partners' batches of domains (src/batches/service.ts), scanned item by item on the job engine. */
  batches: BatchService;
  /** Watches of domains (src/watches/): scheduled runs on the job engine, alerts by mail and webhook. */
  watches: WatchService;
  /** The partner console's lists (src/console/): a key's batches and watches, and its budget. */
  console: PartnerConsole;
  /** The job engine (src/jobs/port.ts): BullMQ with REDIS_URL, else a queue table of its own in a SQLite file beside the database. */
  jobs: JobEngine;
  /** Signed webhook deliveries of watches' events (src/webhooks/deliveries.ts), sent and retried on the job engine. */
  webhooks: WebhookDeliveries;
  /** A watch's webhook secret of a version, derived from the master key (WEBHOOK_SECRET_KEY, else stored). */
  webhookSecret(watchId: string, version: number): Promise<string>;
  /** A key's watches' readiness.changed events, for listChanges (src/feed/service.ts). */
  changes: ChangeFeed;
  /** This instance's Prometheus registry and counters, for GET /metrics (src/metrics/registry.ts). */
  metrics: ServiceMetrics;
  /** Routers outside the public contract, mounted before validation (operator pages). */
  internal: Router[];
  /** Stops background work (mailer) and closes every connection it opened. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Replaces the engine (tests that count upstream scans or inject faults). */
  scanner?: SiteScanner;
  /** Run the outbox mailer in this process (default true). */
  mailer?: boolean;
  /** Overrides for the scan services (tests: a fake resolver, a Redis client of their own). */
  scans?: Partial<Omit<BuildScanServicesOptions, 'scanner'>>;
  /** Overrides for the MCP tools' dependencies (tests: a short GET stream, fake services). */
  mcp?: Partial<McpDeps>;
  /** Builds the MCP-server scanner instead (tests that scan the test world); gets the shared limits. */
  mcpScan?: (scans: ScanServices) => McpScanner;
  /** Replaces the job engine (tests: one that fails, to see what a failed enqueue leaves). */
  jobs?: JobEngine;
  /** Process batch items in this instance (default true). */
  batches?: boolean;
  /** Process webhook deliveries in this instance (default true). */
  webhooks?: boolean;
  /** Replaces networkA's egress for webhook deliveries (in-process tests: the test world's, which trusts its CA). */
  webhookEgress?: Egress;
  /** Prune the change feed in this instance (default true). */
  changes?: boolean;
  /** Run watches in this instance (default true). */
  watches?: boolean;
  /** Replaces webhook delivery for the watches (tests: a recording fake); default: the real one built below. */
  deliveries?: WebhookDeliveries;
  /** Bounds of the progress board (tests). */
  progress?: ProgressBoardOptions;
  /**
   * Leave the background workers (batch items, webhook deliveries, the mail outbox) stopped until
   * startWorkers(): server.ts starts them once the listener is up, so loading the job engine and
   * re-enqueueing open work never delays the first answer (default false: started at once).
   */
  deferWorkers?: boolean;
}

/**
 * The scan engine and its two networks' egresses (undici, htmlparser2, the Web Bot Auth
 * signer: a fifth of the start-up imports), loaded on the first scan. What it opens is
 * listed in `opened` for stop(); a failed load is retried by the next scan.
 */
function lazySiteScanner(ctx: AppContext, probeKey: () => Promise<ProbeKey>, opened: Array<Promise<unknown>>, egresses: Egress[]): SiteScanner {
  const c = ctx.config;
  const load = onFirstUse(() => Promise.all([import('./net/egress.ts'), import('./scanner/engine.ts'), import('./signing/web-bot-auth.ts')]).then(([{ createEgress }, { createScanner, DEFAULT_CONCURRENCY }, { webBotAuthSigner }]) => {
    // As many sockets per site as the politeness bound lets requests run at once: with more, a
    // request released by the limiter before undici saw its predecessor's socket go idle opened a
    // new TLS connection (32 handshakes per 74-request scan instead of 16; bench/results.md).
    const connections = DEFAULT_CONCURRENCY;
    const networks = {
      networkA: createEgress({ name: 'networkA', proxyUrl: c.networkAProxy, allowDirect: true, resolve: c.scanResolve, connections }),
      // Without its proxy networkB is unconfigured: its cells are `unprobed`, never a failure.
      networkB: createEgress({ name: 'networkB', proxyUrl: c.networkBProxy, allowDirect: false, resolve: c.scanResolve, connections }),
    };
    egresses.push(networks.networkA, networks.networkB);
    // Web Bot Auth needs an https Signature-Agent URL (draft-ietf-webbotauth-httpsig-protocol-01
    // §5.2.1): on an http BASE_URL (local runs) no signed probe is sent, and the check says so.
    const webBotAuth = c.baseUrl.startsWith('https://') ? webBotAuthSigner(c.baseUrl, probeKey, () => ctx.now(), `agent-readiness/1.0 (+${c.baseUrl}/methodology.md)`) : undefined;
    const doh = { url: c.scanDohUrl, userAgent: `agent-readiness/1.0 (+${c.baseUrl}/methodology.md)` };
    return createScanner({ networks, deadlineMs: c.scanDeadlineMs, probeTimeoutMs: c.probeTimeoutMs, doh, ...(webBotAuth ? { webBotAuth } : {}) });
  }), opened);
  return { scan: async (domain, opts) => (await load()).scan(domain, opts) };
}

/**
 * The outbox's transport, loaded on the first mail (nodemailer is a tenth of the start-up
 * imports, and most processes send no mail for a while); a failed load is retried.
 */
function lazyTransport(smtpUrl: string | undefined, mailDir: string): MailTransport {
  const load = onFirstUse(() => import('./mail/transport.ts').then((m) => m.transportFor(smtpUrl, mailDir)));
  let loaded: Promise<MailTransport> | undefined;
  return {
    send: async (mail) => (await (loaded = load())).send(mail),
    close: () => {
      void loaded?.then((t) => t.close(), () => undefined);
    },
  };
}

/** networkA's guarded egress for webhook deliveries, loaded on the first delivery (undici is a large import). */
function lazyWebhookEgress(ctx: AppContext, opened: Array<Promise<unknown>>, egresses: Egress[]): () => Promise<Egress> {
  const c = ctx.config;
  return onFirstUse(() => import('./net/egress.ts').then(({ createEgress }) => {
    // As a probe leaves: through NETWORK_A_PROXY (direct without one), every hop guarded, SCAN_RESOLVE first.
    const e = createEgress({ name: 'networkA', proxyUrl: c.networkAProxy, allowDirect: true, resolve: c.scanResolve });
    egresses.push(e);
    return e;
  }), opened);
}

function lazyMcpScanner(ctx: AppContext, scans: ScanServices, opened: Array<Promise<unknown>>, egresses: Egress[]): McpScanner {
  const c = ctx.config;
  const load = onFirstUse(() => Promise.all([import('./net/egress.ts'), import('./mcp-scan/service.ts')]).then(([{ createEgress }, { McpScanService }]) => {
    const egress = createEgress({ name: 'networkA', proxyUrl: c.networkAProxy, allowDirect: true, resolve: c.scanResolve });
    egresses.push(egress);
    return new McpScanService({
      db: ctx.db, log: ctx.log, now: ctx.now, baseUrl: c.baseUrl, excludedDomains: c.excludedDomains, scannerZone: c.scannerZone,
      limits: scans.limits, egress,
      resolve: (host) => resolveHost(host, c.scanResolve, c.probeTimeoutMs),
      // Operators of scanned servers can see who asked and read how the scan works.
      scan: { userAgent: `agent-readiness-mcp-scanner/${SCANNER_VERSION} (+${c.baseUrl}/methodology.md)` },
    });
  }), opened);
  return { scan: async (input) => (await load()).scan(input) };
}

/**
 * The composition root's one lazy memo: `load` runs on the first call and its promise is kept
 * for every later call; a failed load (storage down, an import that threw) is forgotten, so the
 * next call tries again. Listed in `opened`, when given, so stop() waits for what it opens.
 */
function onFirstUse<T>(load: () => Promise<T>, opened?: Array<Promise<unknown>>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    if (kept) return kept;
    const p = load();
    kept = p;
    p.catch(() => {
      if (kept === p) kept = undefined;
    });
    opened?.push(p);
    return p;
  };
}

export function startServices(ctx: AppContext, options: ServiceOptions = {}): AppServices {
  const c = ctx.config;
  const egresses: Egress[] = [];
  let redis: Redis | undefined;
  if (c.redisUrl) {
    // Loaded only when configured: a single instance without Redis starts without it (a tenth of a cold start).
    const { Redis } = require('ioredis') as typeof import('ioredis');
    redis = new Redis(c.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false, keyPrefix: c.redisKeyPrefix });
    // Without this listener a lost Redis would be an unhandled 'error' event and crash the process.
    redis.on('error', (err) => ctx.log.warn({ err: err.message }, 'redis unavailable'));
  }
  const reads = new ReadCaches(ctx.db);
  const jobs = options.jobs ?? createJobEngine(c, ctx.log);
  const metrics = new ServiceMetrics({ jobs, queues: [BATCH_QUEUE, WATCH_QUEUE, WEBHOOK_QUEUE, SWEEP_QUEUE, PRUNE_QUEUE] });
  const changes = new ChangeFeed({ db: ctx.db, log: ctx.log, now: () => ctx.now(), jobs });
  const keys = new ApiKeys({ db: ctx.db, ...(redis ? { redis } : {}), now: () => ctx.now(), ...(c.operatorToken ? { operatorToken: c.operatorToken } : {}) });
  // Remembered a little longer than any scan can run, so a late stream still sees how it ended.
  const progress = new ProgressBoard({ ttlMs: c.scanDeadlineMs + 60_000, ...options.progress });
  let share: RedisProgressShare | undefined;
  if (redis) {
    // Several instances: a browser's stream and its form post may land on different ones.
    const subscriber = progressSubscriber(redis);
    subscriber.on('error', (err) => ctx.log.warn({ err: err.message }, 'redis unavailable (progress)'));
    share = new RedisProgressShare({ redis, subscriber, channel: `${c.redisKeyPrefix}progress`, ttlMs: c.scanDeadlineMs + 60_000, log: ctx.log });
    progress.share(share);
    share.start((id, e) => progress.apply(id, e)).catch((err: unknown) => ctx.log.warn({ err: (err as Error).message }, 'progress not shared between instances'));
  }
  const mailer = new Mailer({ db: ctx.db, transport: lazyTransport(c.smtpUrl, c.mailDir), from: c.mailFrom, baseUrl: c.baseUrl, log: ctx.log, now: () => ctx.now(), onResult: (r) => metrics.mail(r) });

  const probeKey = onFirstUse(() => loadProbeKey(c.probeSigningKey, ctx.db, ctx.now()));
  // Lazy loads under way or done; stop() waits for them so that what they open is closed.
  const opened: Array<Promise<unknown>> = [];
  const engine = options.scanner ?? lazySiteScanner(ctx, probeKey, opened, egresses);
  // Every upstream site scan, whichever way it came (form, API, batch, watch, MCP tool), counted once here.
  const scanner: SiteScanner = { scan: (domain, opts) => timedScan(metrics, 'site', () => engine.scan(domain, opts), (r) => r.report.headline) };
  const catalogs = buildCatalogs();
  const scanning = buildScanServices(ctx, {
    // why/fix by check id for report pages and mails, from the catalogs already built (ids keep their meaning across rubrics)
    catalog: catalogLookup({ checks: [...catalogs.values()].flatMap((p) => p.catalog.checks) }),
    ...(redis ? { redis } : {}),
    onMailQueued: () => mailer.wake(),
    // The badge of this domain now shows the new scan.
    onArchived: (domain) => reads.forgetLatestSiteScan(domain),
    ...options.scans,
    scanner,
  });
  const resolve = options.scans?.resolve ?? ((host: string) => resolveHost(host, c.scanResolve, c.probeTimeoutMs));
  // One per-address bound for batch items and watch runs alike: both are background scans of others' sites.
  const addresses = redis ? redisAddressLimiter(redis, c.fleetPerAddressConcurrency) : localAddressLimiter(c.fleetPerAddressConcurrency);
  const masterKey = onFirstUse(() => loadWebhookMasterKey(c.webhookSecretKey, ctx.db, ctx.now()));
  const batches = new BatchService({
    db: ctx.db, log: ctx.log, now: () => ctx.now(), baseUrl: c.baseUrl, jobs, keys, scans: scanning.scans,
    resolve,
    addresses,
    masterKey,
    concurrency: c.workerConcurrency,
    onItems: (state, n) => metrics.batchItems(state, n),
    // The scan's own deadline, a wait for room in admission, and margin; a busy address slot
    // sends the job back to the queue instead of waiting inside this (address-limit.ts).
    jobTimeoutMs: c.scanDeadlineMs + 20_000,
  });
  const mcp: McpDeps = { ...mcpScanDeps(ctx, scanning.scans), listChecks: (rubric) => catalogs.get(rubric ?? RUBRIC_VERSION)!.catalog, baseUrl: c.baseUrl, ...options.mcp };
  const mcpScanner = options.mcpScan?.(scanning) ?? lazyMcpScanner(ctx, scanning, opened, egresses);
  const mcpScan: McpScanner = { scan: (input) => timedScan(metrics, 'mcp', () => mcpScanner.scan(input), (r) => (r.body as { headline?: { access?: unknown } }).headline?.access) };
  const webhookSecret = webhookSecrets(c.webhookSecretKey, ctx.db, () => ctx.now());
  const webhooks = new WebhookDeliveryService({
    db: ctx.db, log: ctx.log, now: () => ctx.now(), jobs, secret: webhookSecret,
    egress: options.webhookEgress ? async () => options.webhookEgress! : lazyWebhookEgress(ctx, opened, egresses),
    backoffMs: c.webhookBackoffMs, timeoutMs: c.webhookTimeoutMs,
    userAgent: `agent-readiness-webhooks/1.0 (+${c.baseUrl}/methodology.md)`,
    watchActive: (id) => watchIsActive(ctx.db, id),
    // At most two attempts of one watch in flight, across instances with Redis (src/webhooks/watch-slots.ts).
    slots: redis ? redisWatchSlots(redis) : localWatchSlots(),
    onResult: (r) => metrics.delivery(r),
  });
  let runner: WatchRunner | undefined;
  const watches = new WatchService({
    db: ctx.db, log: ctx.log, now: () => ctx.now(), baseUrl: c.baseUrl, excludedDomains: c.excludedDomains, jobs, keys, scans: scanning.scans, limits: scanning.limits, turnstile: scanning.turnstile, resolve, masterKey,
    mailPerRecipientPerDay: c.mailPerRecipientPerDay, onMailQueued: () => mailer.wake(),
    deliveries: options.deliveries ?? webhooks,
    changes,
    enqueueRun: (id, period, delayMs) => runner!.enqueue(id, period, delayMs),
    cancelRuns: (w) => runner!.cancel(w),
    confirmTtlS: c.watchConfirmTtlS,
  });
  const expiry = new ConfirmationExpiry({ db: ctx.db, log: ctx.log, now: () => ctx.now(), jobs, ttlS: c.watchConfirmTtlS });
  runner = new WatchRunner(watches, { addresses, intervalS: c.watchIntervalS, concurrency: c.workerConcurrency, jobTimeoutMs: c.scanDeadlineMs + 20_000 });
  let workersStarted = false;
  const startWorkers = () => {
    if (workersStarted) return;
    workersStarted = true;
    if (options.batches !== false) batches.start();
    if (options.mailer !== false) mailer.start();
    if (options.webhooks !== false) webhooks.start();
    if (options.changes !== false) changes.start();
    if (options.watches !== false) {
      runner.start();
      expiry.start();
    }
  };
  if (!options.deferWorkers) startWorkers();
  const documents = onFirstUse((): Promise<Documents> => import('./docs/documents.ts').then((m) => m.documentsFor(c.baseUrl)));
  const mcpManifest = onFirstUse((): Promise<Record<string, unknown>> => import('./mcp/manifest.ts').then((m) => m.buildMcpManifest({ baseUrl: c.baseUrl })));
  return {
    startWorkers,
    probeKey,
    mcpManifest,
    catalogs,
    scans: scanning.scans,
    catalog: scanning.catalog,
    mcp,
    mcpScan,
    attachCliVantage: (scanId, body) => attachCliVantage({
      db: ctx.db, now: () => ctx.now(), baseUrl: c.baseUrl, onAttached: (id) => reads.forgetReportPage(id),
    }, scanId, body),
    reads,
    progress,
    documents,
    origin: originFiles({ baseUrl: c.baseUrl, securityContact: c.securityContact, expires: new Date(ctx.now().getTime() + 365 * 24 * 3600 * 1000) }),
    keys,
    batches,
    watches,
    console: new PartnerConsole({ db: ctx.db, now: () => ctx.now(), baseUrl: c.baseUrl, keys, batches, watches }),
    jobs,
    webhooks,
    webhookSecret,
    changes,
    metrics,
    internal: [operatorRouter(ctx.db, c.operatorToken, keys)],
    async stop() {
      scanning.admission.close();
      progress.stop();
      share?.stop();
      await mailer.stop();
      await batches.stop();
      // Running jobs finish (each within its timeout); none starts after this.
      await jobs.close();
      await Promise.allSettled(opened);
      await Promise.all(egresses.map((e) => e.close()));
      reads.clear();
      redis?.disconnect();
    },
  };
}
