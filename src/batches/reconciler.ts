// Batches that always finish. A batch is marked done by the run that finishes its last item
// (finishIfDone), but a crash or a transient storage error between that item's commit and
// finishIfDone would leave it `running` for ever (and `agent-readiness batch --wait` polling).
// So every instance reconciles at start and every `everyMs`: one conditional statement marks
// done every queued or running batch with no open item (finishDoneBatches). Its effect is
// idempotent and safe with any number of instances, so it needs no job, no lock, no leader.
// Every RESUME_EVERY rounds (and at start) it also re-enqueues the open items of unfinished
// batches (no-ops for jobs still queued), so a job lost with its backend's data runs again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { finishDoneBatches } from '../storage/queries/batches.ts';

/** Rounds between two re-enqueues of open items (30 rounds of 10 s: every 5 minutes). */
export const RESUME_EVERY = 30;

export interface ReconcilerOptions {
  db: Knex;
  log: Logger;
  now: () => Date;
  everyMs: number;
  /** Re-enqueues the open items of unfinished batches. */
  resume: () => Promise<void>;
}

export class Reconciler {
  readonly #o: ReconcilerOptions;
  readonly #stop = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(o: ReconcilerOptions) {
    this.#o = o;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /** One round: finished batches marked done; returns how many. */
  async reconcile(): Promise<number> {
    const n = await finishDoneBatches(this.#o.db, this.#o.now().toISOString());
    if (n > 0) this.#o.log.info({ batches: n }, 'batches reconciled: every item had finished');
    return n;
  }

  async #run(): Promise<void> {
    for (let round = 0; !this.#stop.signal.aborted; round++) {
      if (round % RESUME_EVERY === 0) {
        await this.#o.resume().catch((err: unknown) => this.#o.log.warn({ err }, 'open batch items not re-enqueued; trying again later'));
      }
      await this.reconcile().catch((err: unknown) => this.#o.log.warn({ err }, 'batches not reconciled; trying again later'));
      await sleep(this.#o.everyMs, undefined, { signal: this.#stop.signal }).catch(() => undefined);
    }
  }
}
