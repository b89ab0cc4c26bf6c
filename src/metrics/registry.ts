// The service's Prometheus metrics (GET /metrics, issue 38 item 5). One Registry per service
// instance, built in the composition root (src/services.ts) and never prom-client's global
// default, so two services in one process (tests, the multi-instance suites) never mix figures.
//
// What is whose: counters and the histogram are this instance's own since it started (what it
// scanned, delivered, mailed); the job gauges read the shared engine at each scrape (BullMQ's
// Redis, or the embedded queue file), so every instance sharing it reports the same queues.
// Labels are bounded sets named here: never a domain, an id or an email. A value from outside
// the set (a headline this code does not know yet) is counted as "other".
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../errors.ts';
import type { JobEngine } from '../jobs/index.ts';

/** Site scans' headlines, MCP scans' access (open, auth-required, blocked, unknown), and error for a scan that failed. */
export const HEADLINES = ['open', 'partially-blocked', 'agent-hostile', 'contradictory', 'unknown', 'auth-required', 'blocked', 'error'] as const;
export const SCAN_KINDS = ['site', 'mcp'] as const;
export const BATCH_ITEM_STATES = ['queued', 'done', 'failed', 'cancelled'] as const;
export const DELIVERY_RESULTS = ['delivered', 'failed', 'given-up', 'dropped'] as const;
export const MAIL_RESULTS = ['sent', 'failed', 'given-up', 'dropped'] as const;

type OneOf<T extends readonly string[]> = T[number];

const bounded = <T extends readonly string[]>(set: T, value: string): string => ((set as readonly string[]).includes(value) ? value : 'other');

export interface MetricsSources {
  jobs: JobEngine;
  /** The queues the service uses, each reported even when empty. */
  queues: readonly string[];
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #sources: MetricsSources;
  readonly #scans: Counter<'kind' | 'headline'>;
  readonly #duration: Histogram;
  readonly #batchItems: Counter<'state'>;
  readonly #deliveries: Counter<'result'>;
  readonly #mail: Counter<'result'>;
  readonly #waiting: Gauge<'queue'>;
  readonly #active: Gauge<'queue'>;
  readonly #delayed: Gauge<'queue'>;
  readonly #engineUp: Gauge;

  constructor(sources: MetricsSources) {
    this.#sources = sources;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#scans = new Counter({ name: 'agent_readiness_scans_total', help: 'Scans this instance ran, by kind (site, mcp) and headline (error: the scan failed).', labelNames: ['kind', 'headline'], registers });
    this.#duration = new Histogram({
      // Site scans only, and no label: one series, as every Prometheus text reader takes it
      // (parse-prometheus-text-format, prom2json's format, drops a labelled histogram's labels).
      name: 'agent_readiness_scan_duration_seconds', help: 'How long this instance\'s site scans took (MCP scans are counted in agent_readiness_scans_total only).', registers,
      // Site scans take 2 to 25 s (SCAN_DEADLINE_MS).
      buckets: [0.5, 1, 2, 5, 10, 15, 20, 25, 30, 60],
    });
    this.#batchItems = new Counter({ name: 'agent_readiness_batch_items', help: 'Batch items this instance moved into a state: queued (accepted by createBatch), done, failed, cancelled.', labelNames: ['state'], registers });
    this.#deliveries = new Counter({ name: 'agent_readiness_webhook_deliveries_total', help: 'Webhook delivery attempts this instance made, by result: delivered, failed (will retry), given-up (last attempt failed), dropped (the watch had ended).', labelNames: ['result'], registers });
    this.#mail = new Counter({ name: 'agent_readiness_mail_total', help: 'Mails this instance handed to SMTP (or the mail folder), by result: sent, failed (will retry), given-up, dropped (the watch had ended).', labelNames: ['result'], registers });
    this.#waiting = new Gauge({ name: 'agent_readiness_jobs_waiting', help: 'Jobs ready to run and not yet claimed, by queue, on the shared job engine.', labelNames: ['queue'], registers });
    this.#active = new Gauge({ name: 'agent_readiness_jobs_active', help: 'Jobs running now in any instance, by queue, on the shared job engine.', labelNames: ['queue'], registers });
    this.#delayed = new Gauge({ name: 'agent_readiness_jobs_delayed', help: 'Jobs due later (retries, scheduled watch runs), by queue, on the shared job engine.', labelNames: ['queue'], registers });
    this.#engineUp = new Gauge({ name: 'agent_readiness_job_engine_up', help: '1 while the job engine reaches its backend and claims jobs, else 0.', registers });
    // Every series exists from the start at 0, so a rate() over a fresh instance is defined.
    for (const state of BATCH_ITEM_STATES) this.#batchItems.inc({ state }, 0);
    for (const result of DELIVERY_RESULTS) this.#deliveries.inc({ result }, 0);
    for (const result of MAIL_RESULTS) this.#mail.inc({ result }, 0);
  }

  scan(kind: OneOf<typeof SCAN_KINDS>, headline: string, seconds: number): void {
    this.#scans.inc({ kind, headline: bounded(HEADLINES, headline) });
    if (kind === 'site') this.#duration.observe(seconds);
  }

  batchItems(state: OneOf<typeof BATCH_ITEM_STATES>, n = 1): void {
    if (n > 0) this.#batchItems.inc({ state }, n);
  }

  delivery(result: OneOf<typeof DELIVERY_RESULTS>): void {
    this.#deliveries.inc({ result });
  }

  mail(result: OneOf<typeof MAIL_RESULTS>): void {
    this.#mail.inc({ result });
  }

  /** The text exposition, with the job gauges read from the engine now. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    const health = this.#sources.jobs.health();
    let counts;
    try {
      counts = await this.#sources.jobs.counts(this.#sources.queues);
    } catch {
      counts = undefined;
    }
    this.#engineUp.set(health.state === 'ok' && counts ? 1 : 0);
    for (const g of [this.#waiting, this.#active, this.#delayed]) g.reset();
    // Unreadable counts are left out rather than reported stale or as 0.
    for (const c of counts ?? []) {
      this.#waiting.set({ queue: c.queue }, c.waiting);
      this.#active.set({ queue: c.queue }, c.active);
      this.#delayed.set({ queue: c.queue }, c.delayed);
    }
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Times a scan and counts it by the headline it reached ("error" when it failed; a refusal with a 4xx is not counted). */
export async function timedScan<T>(metrics: ServiceMetrics, kind: OneOf<typeof SCAN_KINDS>, run: () => Promise<T>, headlineOf: (result: T) => unknown): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await run();
    const headline = headlineOf(result);
    metrics.scan(kind, typeof headline === 'string' ? headline : 'unknown', seconds());
    return result;
  } catch (err) {
    // A refusal before any probe (bad input, a rate limit, an excluded domain) is no scan.
    if (!(err instanceof AppError && err.status < 500)) metrics.scan(kind, 'error', seconds());
    throw err;
  }
}
