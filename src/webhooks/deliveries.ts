// Webhook deliveries (issue 31): send() stores the event's row (pending) and enqueues its job;
// the job engine runs the attempts and their retries. Each attempt reads the row first, so a
// job redelivered after a crash sends nothing once the row is delivered or failed; it signs the
// stored body with a fresh timestamp (the same bytes and event id on every attempt) and
// records what came of it on the row.
//
// Opt-in and fairness (issue 35): nothing is stored for a watch that is not active (confirmed
// and not ended), and each attempt asks again right before its request leaves, so an
// unsubscribe or a delete that lands after the event was queued still stops it. An attempt
// first takes one of its watch's slots (watch-slots.ts: at most 2 in flight per watch, across
// instances); with none free it goes back to the queue without spending an attempt, so a
// receiver that hangs delays its own watch's events only. A test event (testWatch) is sent
// once, never retried.
//
// Schedule (DELIVERY_ATTEMPTS runs, WEBHOOK_BACKOFF_MS doubling): at the default 5 s the
// retries come 5 s, 10 s, 20 s … 40 960 s (11 h 23 min) after the attempt before, 15 attempts
// in all; the last one is 81 915 s (22 h 45 min) after the first, and then the row is failed.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Job, JobEngine } from '../jobs/index.ts';
import { backoffAfter, RetryLater } from '../jobs/port.ts';
import type { Egress } from '../net/egress.ts';
import {
  abandonDelivery, deleteWatchDeliveries, findDelivery, findDeliveryByEvent, insertDelivery, listDeliveries, markFailed, pendingDeliveries, recordAttempt, redeliver, undoRedeliver,
  type DeliveryRow, type DeliveryStatus,
} from '../storage/queries/webhookDeliveries.ts';
import { cleanText } from '../security/plain-text.ts';
import { attemptDelivery, withoutAddress } from './attempt.ts';
import type { WatchSlots } from './watch-slots.ts';

export interface WebhookEvent { id: string; type: 'readiness.changed' | 'readiness.test'; [k: string]: unknown }

export interface DeliveryView {
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** While pending: when the next attempt is due; null once final. */
  nextAttemptAt: string | null;
  redeliveries: number;
}

/** What redeliver() did: `queued`, or why not (no such delivery of this watch; still on its way; sent again less than a minute ago). */
export type RedeliverOutcome = 'queued' | 'not-found' | 'pending' | 'too-soon';

/**
 * What send() did: `queued` (stored now and its job enqueued), `duplicate` (an earlier send of
 * this event id stored it; its job is made sure of while pending), `not-active` (the watch is
 * not active: nothing stored, nothing will go).
 */
export type SendOutcome = 'queued' | 'duplicate' | 'not-active';

export interface WebhookDeliveries {
  /** Stores the delivery row (status pending) and enqueues its job, for an active watch only; idempotent by eventId. */
  send(d: { watchId: string; url: string; secretVersion: number; event: WebhookEvent }): Promise<SendOutcome>;
  /** Latest deliveries of a watch, newest first, for getWatch. */
  list(watchId: string, limit: number): Promise<DeliveryView[]>;
  /** Removes a deleted watch's deliveries; those still pending are never attempted again. */
  forgetWatch(watchId: string): Promise<void>;
  /** Sends a finished delivery of this watch again (same event id and body), in one attempt; at most once a minute per delivery. */
  redeliver(watchId: string, eventId: string): Promise<{ outcome: RedeliverOutcome; type?: string }>;
}

/** A delivery is sent again on request at most once in this span. */
export const REDELIVERY_GAP_MS = 60_000;

/** Runs in all, the first counted: with 5 s doubling, the retries span about 23 hours. */
export const DELIVERY_ATTEMPTS = 15;
export const QUEUE = 'webhook-deliveries';
/** Deliveries go before batch items and watch runs: an attempt is one short request. */
const PRIORITY = 20;
/** Time a job may take beyond the request's own timeout: the master key's load, the row's writes. */
const JOB_MARGIN_MS = 5_000;
/** How soon a delivery whose watch had no free slot is tried again (up to twice this, jittered). */
const SLOT_RETRY_MS = 1_000;

/** From the first attempt to the last, when every one fails. */
export function scheduleSpanMs(backoffMs: number, attempts = DELIVERY_ATTEMPTS): number {
  let total = 0;
  for (let failed = 1; failed < attempts; failed++) total += backoffAfter(failed, backoffMs);
  return total;
}

export interface DeliveryDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  jobs: JobEngine;
  /** networkA's guarded egress (loaded on the first delivery). */
  egress: () => Promise<Egress>;
  /** The watch's webhook secret of this version. */
  secret: (watchId: string, version: number) => Promise<string>;
  backoffMs: number;
  timeoutMs: number;
  userAgent: string;
  /** Runs in all (default DELIVERY_ATTEMPTS; tests that watch a delivery fail for good use fewer). */
  attempts?: number;
  /** Attempts running at once in this process. */
  concurrency?: number;
  /** Whether the watch is active now (confirmed, not ended): asked before storing and again right before each request. */
  watchActive: (watchId: string) => Promise<boolean>;
  /** Each watch's slots for attempts in flight (watch-slots.ts: Redis with REDIS_URL, else this process). */
  slots: WatchSlots;
  /** Told what each attempt came to (the metrics' counter). */
  onResult?: (result: 'delivered' | 'failed' | 'given-up' | 'dropped') => void;
}

interface DeliveryJob { id: string }

/** Runs of a test event: one, never retried (a test is asked for again, not repeated by us). */
const TEST_ATTEMPTS = 1;

/** The event id must be usable as a header value, and short enough for the row. */
const EVENT_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export class WebhookDeliveryService implements WebhookDeliveries {
  readonly #d: DeliveryDeps;

  readonly #attempts: number;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
    this.#attempts = deps.attempts ?? DELIVERY_ATTEMPTS;
  }

  async send(d: { watchId: string; url: string; secretVersion: number; event: WebhookEvent }): Promise<SendOutcome> {
    if (!EVENT_ID.test(d.event.id)) throw new TypeError(`event id ${JSON.stringify(d.event.id)} must match ${EVENT_ID}`);
    // createWatch admits only https URLs; a caller that skipped that check gets no plain-text delivery either.
    if (!URL.canParse(d.url) || new URL(d.url).protocol !== 'https:') throw new TypeError(`webhook URL ${JSON.stringify(d.url)} must be https`);
    // Opt-in: nothing is even stored for a watch not confirmed, or ended since its run began.
    if (!(await this.#d.watchActive(d.watchId))) return 'not-active';
    const id = randomUUID();
    const row = await insertDelivery(this.#d.db, {
      id, watch_id: d.watchId, event_id: d.event.id, type: d.event.type, url: d.url,
      secret_version: d.secretVersion, body: JSON.stringify(d.event), created_at: this.#d.now().toISOString(),
    });
    // A second send of a finished event changes nothing; of a pending one, it makes sure its job is queued.
    if (row.status === 'pending') await this.#enqueue(row.id, row.type, row.redeliveries);
    return row.id === id ? 'queued' : 'duplicate';
  }

  async list(watchId: string, limit: number): Promise<DeliveryView[]> {
    const rows = await listDeliveries(this.#d.db, watchId, limit);
    return rows.map((r) => ({
      eventId: r.event_id, type: r.type, status: r.status, attempts: r.attempts, lastStatusCode: r.last_status_code,
      // Cleaned again as shown: rows written before excerpts were short and clean (and addresses left out) show no more than new ones.
      lastError: r.last_error === null ? null : cleanText(withoutAddress(r.last_error)), createdAt: r.created_at, deliveredAt: r.delivered_at,
      nextAttemptAt: this.#nextAttemptAt(r), redeliveries: r.redeliveries,
    }));
  }

  /** The first attempt is due when the row (or its redelivery) was made; a retry, one backoff after the last failed attempt. */
  #nextAttemptAt(r: DeliveryRow): string | null {
    if (r.status !== 'pending') return null;
    const since = r.redelivered_at ?? r.created_at;
    if (r.attempts === 0 || !r.last_attempt_at || r.last_attempt_at < since) return since;
    return new Date(Date.parse(r.last_attempt_at) + backoffAfter(r.attempts, this.#d.backoffMs)).toISOString();
  }

  async redeliver(watchId: string, eventId: string): Promise<{ outcome: RedeliverOutcome; type?: string }> {
    const row = await findDeliveryByEvent(this.#d.db, eventId);
    if (!row || row.watch_id !== watchId) return { outcome: 'not-found' };
    if (row.status === 'pending') return { outcome: 'pending', type: row.type };
    // Opt-in as for any send: nothing goes to the webhook of a watch that is not active.
    if (!(await this.#d.watchActive(watchId))) return { outcome: 'not-found' };
    if (!(await redeliver(this.#d.db, row.id, this.#d.now(), REDELIVERY_GAP_MS))) {
      const now = await findDelivery(this.#d.db, row.id);
      return { outcome: now?.status === 'pending' ? 'pending' : 'too-soon', type: row.type };
    }
    try {
      await this.#enqueue(row.id, row.type, row.redeliveries + 1);
    } catch (err) {
      await undoRedeliver(this.#d.db, row);
      throw err;
    }
    return { outcome: 'queued', type: row.type };
  }

  /**
   * Forgets a deleted watch's deliveries: none still pending is attempted again (its queued job
   * finds no row). For deleteWatch and the one-click unsubscribe.
   */
  async forgetWatch(watchId: string): Promise<void> {
    await deleteWatchDeliveries(this.#d.db, watchId);
  }

  /** Starts this instance's worker and takes up pending deliveries left by a process that died. */
  start(): void {
    this.#d.jobs.process<DeliveryJob>(QUEUE, (job) => this.#attempt(job), {
      concurrency: this.#d.concurrency ?? 8,
      timeoutMs: this.#d.timeoutMs + JOB_MARGIN_MS,
      onFailed: async (job, err) => {
        await markFailed(this.#d.db, job.data.id);
        this.#d.log.warn({ delivery: job.data.id, err: err.message }, 'webhook delivery failed for good');
      },
    });
    void this.#resume().catch((err: unknown) => this.#d.log.warn({ err }, 'pending webhook deliveries not re-enqueued at start'));
  }

  /** A redelivery is its own job (the first run's id may still be kept as finished by the engine), sent once as a test is. */
  #enqueue(id: string, type: string, redeliveries: number): Promise<void> {
    const attempts = type === 'readiness.test' || redeliveries > 0 ? TEST_ATTEMPTS : this.#attempts;
    const jobId = redeliveries > 0 ? `webhook.${id}.r${redeliveries}` : `webhook.${id}`;
    return this.#d.jobs.enqueue<DeliveryJob>(QUEUE, { id }, { jobId, priority: PRIORITY, attempts, backoffMs: this.#d.backoffMs });
  }

  async #attempt(job: Job<DeliveryJob>): Promise<void> {
    const row = await findDelivery(this.#d.db, job.data.id);
    if (!row || row.status !== 'pending') {
      // A redelivered job (after a crash, or a second send): the row says it is settled.
      this.#d.log.debug({ delivery: job.data.id, status: row?.status ?? 'missing' }, 'webhook delivery already final; nothing sent');
      return;
    }
    // Fairness: one of the watch's slots, or back to the queue at once (no attempt spent, no worker held).
    let slot;
    try {
      slot = await this.#d.slots.tryTake(row.watch_id);
    } catch (err) {
      throw new RetryLater(SLOT_RETRY_MS, `the watch's delivery slots could not be read: ${(err as Error).message}`);
    }
    if (!slot) throw new RetryLater(SLOT_RETRY_MS * (1 + Math.random()), `watch ${row.watch_id} has its deliveries in flight`);
    try {
      const [egress, secret] = await Promise.all([this.#d.egress(), this.#d.secret(row.watch_id, row.secret_version)]);
      // Read last, right before the request leaves: an unsubscribe or delete since the event was queued stops it.
      if (!(await this.#d.watchActive(row.watch_id))) {
        await abandonDelivery(this.#d.db, row.id, 'not sent: the watch had ended');
        this.#d.onResult?.('dropped');
        this.#d.log.info({ delivery: row.id, eventId: row.event_id, watchId: row.watch_id }, 'webhook delivery dropped: the watch is no longer active');
        return;
      }
      const result = await attemptDelivery(egress, {
        url: row.url, eventId: row.event_id, body: row.body, secret, timestamp: Math.floor(this.#d.now().getTime() / 1000),
        timeoutMs: this.#d.timeoutMs, userAgent: this.#d.userAgent, signal: job.signal,
      });
      // Stopping (or the job's own timeout): not the receiver's doing, so no attempt is counted.
      if (job.signal.aborted) throw new Error('the delivery was interrupted');
      const counted = await recordAttempt(this.#d.db, row.id, { ...result, at: this.#d.now().toISOString() });
      // Settled meanwhile by another run of this job (two instances after a lapsed lease): its outcome stands.
      if (!counted) return;
      this.#d.onResult?.(result.delivered ? 'delivered' : job.attempt >= job.attempts ? 'given-up' : 'failed');
      if (!result.delivered) {
        this.#d.log.info({ delivery: row.id, eventId: row.event_id, attempt: job.attempt, of: job.attempts, error: result.error }, 'webhook delivery attempt failed');
        throw new Error(result.error ?? 'not delivered');
      }
    } finally {
      await slot.release();
    }
  }

  /**
   * Pending rows whose job was lost (a process died between the row and the enqueue, or the
   * engine gave a job up after repeated crashes) are enqueued again: a no-op for those still
   * queued. One older than the whole schedule is failed instead of starting it over.
   */
  async #resume(): Promise<void> {
    const horizon = scheduleSpanMs(this.#d.backoffMs, this.#attempts) + this.#attempts * (this.#d.timeoutMs + JOB_MARGIN_MS);
    let after = '';
    for (;;) {
      const page = await pendingDeliveries(this.#d.db, after, 200);
      if (page.length === 0) return;
      for (const p of page) {
        if (this.#d.now().getTime() - Date.parse(p.created_at) > horizon) await markFailed(this.#d.db, p.id);
        else await this.#enqueue(p.id, p.type, p.redeliveries);
      }
      after = page.at(-1)!.id;
    }
  }
}
