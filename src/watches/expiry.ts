// Unconfirmed watches expire: one still pending confirmation WATCH_CONFIRM_TTL_S after its
// creation (seven days by default) is deleted with everything that hangs on it, so its links
// (the mail's confirm and unsubscribe, the manage URL) open nothing any more: 404. Its tokens
// were never stored (tokens.ts derives them from the id), so the row was all they opened.
//
// The sweep is work that outlives a request, so it runs on the job engine (queue
// "watch-sweeps"), as watch runs do: one job per sweep period, its id named by the period
// ("watch-sweep.<n>", n = whole periods since the epoch), each run enqueueing the next,
// delayed to its start, and each start enqueueing the current one. A period sweeps once
// however many instances try to schedule it; a start repeats its sweep at most (harmless).
//
// Between two sweeps the service already refuses an expired watch as if it were gone
// (WatchService reads created_at against the same TTL), so the links stop at the TTL itself.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { JobEngine } from '../jobs/index.ts';
import { deleteExpiredPending } from '../storage/queries/watches.ts';

export const SWEEP_QUEUE = 'watch-sweeps';
/** Behind watch runs (300) and batch items (500): nobody waits for a sweep. */
const PRIORITY = 800;
const PAGE = 200;

/** A quarter of the TTL, from a second to an hour: an expired watch is gone within TTL + this. */
export function sweepPeriodMs(ttlS: number): number {
  return Math.min(3_600_000, Math.max(1000, Math.floor((ttlS * 1000) / 4)));
}

export function sweepJobId(period: number): string {
  return `watch-sweep.${period}`;
}

export interface ExpiryDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  jobs: JobEngine;
  ttlS: number;
}

interface SweepJob { p: number }

export class ConfirmationExpiry {
  readonly #d: ExpiryDeps;
  readonly #periodMs: number;

  constructor(d: ExpiryDeps) {
    this.#d = d;
    this.#periodMs = sweepPeriodMs(d.ttlS);
  }

  /** The moment before which a watch still pending has expired. */
  cutoff(): string {
    return new Date(this.#d.now().getTime() - this.#d.ttlS * 1000).toISOString();
  }

  /** Deletes every expired unconfirmed watch; returns how many. */
  async sweep(): Promise<number> {
    let n = 0;
    for (;;) {
      const deleted = await deleteExpiredPending(this.#d.db, this.cutoff(), PAGE);
      n += deleted.length;
      if (deleted.length < PAGE) break;
    }
    if (n > 0) this.#d.log.info({ deleted: n, ttlS: this.#d.ttlS }, 'unconfirmed watches expired and deleted');
    return n;
  }

  /** Processes the sweeps in this instance and enqueues this period's (the sweep at start). */
  start(): void {
    this.#d.jobs.process<SweepJob>(SWEEP_QUEUE, async (job) => {
      await this.sweep();
      // The next period, or the one after now when this sweep ran late (no replay of missed ones).
      await this.#enqueue(Math.max(job.data.p + 1, this.#current() + 1));
    }, {
      concurrency: 1,
      timeoutMs: 60_000,
      // A sweep that failed for good (storage down) still schedules the next one.
      onFailed: async (job) => this.#enqueue(Math.max(job.data.p + 1, this.#current() + 1)),
    });
    void this.#enqueue(this.#current(), 0).catch((err: unknown) => this.#d.log.warn({ err }, 'the sweep of unconfirmed watches was not enqueued at start'));
  }

  #current(): number {
    return Math.floor(this.#d.now().getTime() / this.#periodMs);
  }

  async #enqueue(period: number, delayMs?: number): Promise<void> {
    const at = period * this.#periodMs;
    await this.#d.jobs.enqueue<SweepJob>(SWEEP_QUEUE, { p: period }, {
      jobId: sweepJobId(period), priority: PRIORITY, attempts: 3, backoffMs: 5000,
      delayMs: delayMs ?? Math.max(0, at - this.#d.now().getTime()),
    });
  }
}
