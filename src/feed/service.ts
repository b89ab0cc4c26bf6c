// The change feed (listChanges, issue 38 item 4): a partner key's watches' readiness.changed
// events, oldest first, with a cursor that returns only newer ones. Stored in the database
// (src/storage/queries/changeFeed.ts), so every instance answers the same and a restart loses
// nothing; a page never skips an event that commits late (the seqs' order is their commit
// order, migration 014).
//
// Retention: events are kept RETENTION_DAYS, then deleted by a sweep on the job engine (queue
// "change-prunes", one job per hour named by the hour, as the watch sweeps are scheduled). A
// cursor that points before the deleted events would skip them, so it answers 410 and says how
// to start again.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { errors } from '../errors.ts';
import type { JobEngine } from '../jobs/index.ts';
import type { Caller } from '../keys/service.ts';
import { appendChange, changesAfter, feedState, pruneChanges } from '../storage/queries/changeFeed.ts';
import type { WebhookEvent } from '../webhooks/deliveries.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** Events are kept at least this long (the issue asks for 30 days)… */
export const RETENTION_DAYS = 30;
/** …plus this margin, so a clock a little ahead on one instance never deletes one early. */
const MARGIN_MS = 24 * 3600 * 1000;
export const PRUNE_QUEUE = 'change-prunes';
const PRUNE_PERIOD_MS = 3600 * 1000;
/** Behind everything else: nobody waits for a sweep. */
const PRIORITY = 900;
export const LIMIT_DEFAULT = 100;
export const LIMIT_MAX = 500;

export interface ChangeFeedDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  jobs: JobEngine;
}

export interface ChangesPage {
  events: unknown[];
  nextCursor: string;
  hasMore: boolean;
}

interface PruneJob { p: number }

export class ChangeFeed {
  readonly #d: ChangeFeedDeps;

  constructor(d: ChangeFeedDeps) {
    this.#d = d;
  }

  /** Stores a key's watch event once (by its id); called where the run's alerts are decided (src/watches/notify.ts). */
  async record(keyId: string, event: WebhookEvent & { watchId: string }): Promise<void> {
    await appendChange(this.#d.db, { event_id: event.id, key_id: keyId, watch_id: event.watchId, body: JSON.stringify(event), created_at: this.#d.now().toISOString() });
  }

  /** A page of the caller's events after `since` (from the oldest kept without it). */
  async list(caller: Caller, since: string | undefined, limit = LIMIT_DEFAULT): Promise<ChangesPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) throw errors.badRequest(`\`limit\` must be a whole number from 1 to ${LIMIT_MAX}.`);
    // The head first: every seq at or below it is committed, so the page below it is whole.
    const state = await feedState(this.#d.db);
    let after = state.prunedThrough;
    if (since !== undefined) {
      const seq = decodeCursor(since);
      if (seq === undefined || seq > state.head) {
        throw errors.badRequest('`since` is not a cursor this service issued.', 'Send a `nextCursor` from an earlier answer as it was, or leave `since` out to start from the oldest kept event.');
      }
      after = seq;
    }
    const keyId = caller.kind === 'partner' ? caller.key.keyId : null;
    const rows = await changesAfter(this.#d.db, { keyId, after, through: state.head, limit: limit + 1 });
    // Read again after the page: a sweep that committed meanwhile may have taken rows from it.
    const pruned = (await feedState(this.#d.db)).prunedThrough;
    if (since !== undefined && after < pruned) {
      throw errors.gone(`This cursor is older than the ${RETENTION_DAYS} days events are kept; events after it were deleted.`,
        'Start again without `since` (from the oldest kept event), and read each watch (GET /watches/{watchId}) for what happened before it.');
    }
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    // A short page read everything up to the head, so the next call starts there: a key with
    // no events for weeks keeps a fresh cursor and never meets the 410.
    const next = hasMore ? page.at(-1)!.seq : state.head;
    return { events: page.map((r) => JSON.parse(r.body) as unknown), nextCursor: encodeCursor(Math.max(next, after)), hasMore };
  }

  /** Deletes the events older than the retention; returns how many. */
  async prune(): Promise<number> {
    const cutoff = new Date(this.#d.now().getTime() - RETENTION_DAYS * 24 * 3600 * 1000 - MARGIN_MS).toISOString();
    const n = await pruneChanges(this.#d.db, cutoff);
    if (n > 0) this.#d.log.info({ deleted: n, retentionDays: RETENTION_DAYS }, 'change feed events past their retention deleted');
    return n;
  }

  /** Processes the sweeps in this instance and enqueues this hour's. */
  start(): void {
    this.#d.jobs.process<PruneJob>(PRUNE_QUEUE, async (job) => {
      await this.prune();
      await this.#enqueue(Math.max(job.data.p + 1, this.#current() + 1));
    }, {
      concurrency: 1,
      timeoutMs: 120_000,
      onFailed: async (job) => this.#enqueue(Math.max(job.data.p + 1, this.#current() + 1)),
    });
    void this.#enqueue(this.#current(), 0).catch((err: unknown) => this.#d.log.warn({ err }, 'the change feed sweep was not enqueued at start'));
  }

  #current(): number {
    return Math.floor(this.#d.now().getTime() / PRUNE_PERIOD_MS);
  }

  async #enqueue(period: number, delayMs?: number): Promise<void> {
    await this.#d.jobs.enqueue<PruneJob>(PRUNE_QUEUE, { p: period }, {
      jobId: `change-prune.${period}`, priority: PRIORITY, attempts: 3, backoffMs: 5000,
      delayMs: delayMs ?? Math.max(0, period * PRUNE_PERIOD_MS - this.#d.now().getTime()),
    });
  }
}
