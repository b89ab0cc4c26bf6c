// The port on a local SQLite file, no extra server: a queue table of our own (embedded-store.ts)
// and a claim loop per queue (embedded-runner.ts), run in this process.
//
// Why not liteque any more (it was this adapter until December 2026; README, "Job engine"):
// of liteque we had come to use one INSERT and one UPDATE. Its claim sorts the whole queue
// (7–11 ms per claim at 20,000 queued jobs, on the event loop), its transaction wrapper fails on
// better-sqlite3 ≥ 11.10 (WiseLibs/better-sqlite3#1364), its Runner leaves a lease-long timer
// behind every task, and attempts, backoff, cancel and lease renewal were already ours, in a
// table beside its own. An index of ours on its table would have meant shaping another
// library's schema. Our table does what the port needs in a handful of statements.
//
// Leases: a running job holds a lease of `leaseMs` that this process renews every third of it,
// so a job whose process died is claimed again about `leaseMs` later (counted as a lost run),
// however long its timeout; a restart on the same host takes up the jobs of a dead process at
// once (their owner's pid no longer runs). A job that has lost ALONE_AFTER runs runs alone in this process (nothing else
// is claimed until the jobs running finish, and nothing beside it), so that a process killed
// while it runs says whose doing that was (embedded-store.ts). Several processes may share one file (each claim is one atomic
// statement); normally one instance owns it. A restart resumes every job left in the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { claimLoop, write, type LoopHealth } from './embedded-runner.ts';
import { ALONE_AFTER, openStore, type Claimed, type Store } from './embedded-store.ts';
import {
  backoffAfter, checkEnqueue, JobEngineUnavailable, LOST_RUNS, lostRunsError, RetryLater, runWithTimeout,
  type EngineHealth, type EnqueueOptions, type Job, type JobEngine, type Processor, type ProcessOptions, type QueueCounts,
} from './port.ts';

export interface EmbeddedOptions {
  /** The SQLite file of the queue, or ':memory:'. */
  file: string;
  log: Logger;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /** A running job's lease, renewed every third of it while its process lives (JOB_LEASE_MS). */
  leaseMs?: number;
  /** How long a statement waits for another process's lock on the file before it fails (and is retried later). */
  busyTimeoutMs?: number;
}

type Outcome = { finish: true } | { finish: false; at: number; failed: boolean; error?: string };
const FINISH: Outcome = { finish: true };

/** The reason of a degraded engine, in words a reader of /health understands. */
function reasonOf(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return `the job queue's file is locked by another process (${code})`;
  if (code.startsWith('SQLITE_READONLY')) return `the job queue's file cannot be written (${code})`;
  if (code.startsWith('SQLITE_FULL')) return `the disk of the job queue's file is full (${code})`;
  return `the job queue's file could not be used: ${message.slice(0, 200)}`;
}

export class EmbeddedJobEngine implements JobEngine {
  readonly kind = 'embedded';
  readonly #sqlite: Database.Database;
  readonly #store: Store;
  readonly #o: Required<Omit<EmbeddedOptions, 'log'>> & { log: Logger };
  readonly #loops: Array<Promise<void>> = [];
  readonly #stop = new AbortController();
  /** Runs under way in this process, whose leases the renewal keeps. */
  readonly #owned = new Set<{ id: number; token: string }>();
  /** Settles at the next enqueue in this process: idle loops claim at once instead of at their next poll. */
  #nudge = Promise.withResolvers<void>();
  readonly #queues = new Set<string>();
  /** Jobs running in this process, of every queue. */
  #running = 0;
  /** A suspect (a job that lost ALONE_AFTER runs) is running alone. */
  #alone = false;
  #renewal: NodeJS.Timeout | undefined;
  #health: EngineHealth = { state: 'ok' };
  #closed = false;
  /** Who claims here: host, pid, and this engine's start (a later process with the same pid differs). */
  readonly #owner = `${os.hostname()}:${process.pid}:${Date.now().toString(36)}`;

  constructor(o: EmbeddedOptions) {
    this.#o = { pollMs: 250, leaseMs: 30_000, busyTimeoutMs: 250, ...o };
    if (o.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(o.file)), { recursive: true });
    this.#sqlite = new Database(o.file, { timeout: this.#o.busyTimeoutMs });
    this.#sqlite.pragma('journal_mode = WAL');
    this.#sqlite.pragma('synchronous = NORMAL');
    this.#store = openStore(this.#sqlite);
    const orphans = this.#store.reclaimDead((owner) => this.#dead(owner));
    if (orphans > 0) o.log.warn({ jobs: orphans }, 'job engine: jobs of a process that died are taken up again now');
  }

  /** Whether a claim's owner is a process of this host that no longer runs (or an earlier one with our pid). */
  #dead(owner: string): boolean {
    const [host, pid] = owner.split(':');
    if (host !== os.hostname() || !pid || !/^[0-9]+$/.test(pid)) return false;
    if (Number(pid) === process.pid) return owner !== this.#owner;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  readonly #loopHealth: LoopHealth = {
    ok: () => {
      if (this.#health.state === 'ok') return;
      this.#o.log.info('job engine: the queue file works again');
      this.#health = { state: 'ok' };
    },
    degraded: (err) => {
      const reason = reasonOf(err);
      if (this.#health.reason !== reason) this.#o.log.warn({ err }, `job engine degraded: ${reason}`);
      this.#health = { state: 'degraded', reason };
    },
  };

  health(): EngineHealth {
    return { ...this.#health };
  }

  #add(queue: string, jobs: ReadonlyArray<{ data: unknown; opts: EnqueueOptions }>): void {
    const rows = jobs.map((j) => {
      const o = checkEnqueue(queue, j.opts);
      return { queue, jobId: o.jobId, data: JSON.stringify(j.data ?? null), priority: o.priority, delayMs: o.delayMs, attempts: o.attempts, backoffMs: o.backoffMs };
    });
    this.#open();
    try {
      this.#store.add(rows, Date.now());
    } catch (err) {
      this.#loopHealth.degraded(err);
      throw new JobEngineUnavailable(`enqueue ${queue}: ${reasonOf(err)}`, { cause: err });
    }
    const nudge = this.#nudge;
    this.#nudge = Promise.withResolvers<void>();
    nudge.resolve();
  }

  async enqueue<T>(queue: string, data: T, opts: EnqueueOptions): Promise<void> {
    this.#add(queue, [{ data, opts }]);
  }

  async enqueueMany<T>(queue: string, jobs: ReadonlyArray<{ data: T; opts: EnqueueOptions }>): Promise<void> {
    // One transaction: all are queued or none.
    this.#add(queue, jobs);
  }

  async cancel(queue: string, jobId: string): Promise<void> {
    this.#open();
    try {
      this.#store.cancel(queue, jobId);
    } catch (err) {
      throw new JobEngineUnavailable(`cancel ${queue}: ${reasonOf(err)}`, { cause: err });
    }
  }

  async counts(queues: readonly string[]): Promise<QueueCounts[]> {
    this.#open();
    let byQueue;
    try {
      byQueue = this.#store.counts(Date.now());
    } catch (err) {
      throw new JobEngineUnavailable(`count jobs: ${reasonOf(err)}`, { cause: err });
    }
    return queues.map((queue) => byQueue.get(queue) ?? { queue, waiting: 0, active: 0, delayed: 0 });
  }

  process<T>(queue: string, processor: Processor<T>, opts: ProcessOptions<T>): void {
    this.#open();
    if (this.#queues.has(queue)) throw new Error(`queue ${queue} is already processed here`);
    this.#queues.add(queue);
    this.#renewal ??= setInterval(() => this.#renew(), Math.max(100, Math.floor(this.#o.leaseMs / 3)));
    const stop = this.#stop.signal;
    const done = claimLoop<Claimed>({
      concurrency: opts.concurrency,
      pollMs: this.#o.pollMs,
      stop,
      health: this.#loopHealth,
      claim: () => this.#claim(queue),
      nudged: () => this.#nudge.promise,
      run: async (claimed) => {
        const ref = { id: claimed.id, token: claimed.token };
        this.#owned.add(ref);
        this.#running++;
        try {
          const outcome = await this.#runClaimed(queue, claimed, processor, opts);
          const written = await write(() => (outcome.finish ? this.#store.finish(ref) : this.#store.later(ref, outcome.at, outcome.failed, outcome.error)), this.#loopHealth, stop, this.#o.pollMs);
          if (!written) this.#o.log.warn({ queue, jobId: claimed.job_id }, 'a job outcome could not be recorded; it runs again when its lease lapses');
        } finally {
          this.#owned.delete(ref);
          this.#running--;
          if (claimed.lost >= ALONE_AFTER) this.#alone = false;
        }
      },
    });
    this.#loops.push(done.catch((err: unknown) => this.#o.log.error({ err, queue }, 'job runner stopped')));
  }

  /** The next job of `queue` to run here, if any may start now (a suspect only alone). */
  #claim(queue: string): Claimed | undefined {
    if (this.#alone) return undefined;
    const now = Date.now();
    this.#store.promote(now);
    if (this.#store.hasSuspect(this.#queues)) {
      // Drain first: no new job until those running finish; then the suspect alone.
      if (this.#running > 0) return undefined;
      const suspect = this.#store.claim(queue, this.#owner, now + this.#o.leaseMs, true);
      if (suspect) this.#alone = true;
      return suspect;
    }
    return this.#store.claim(queue, this.#owner, now + this.#o.leaseMs);
  }

  async #runClaimed<T>(queue: string, c: Claimed, processor: Processor<T>, opts: ProcessOptions<T>): Promise<Outcome> {
    if (c.cancelled) return FINISH;
    const data = JSON.parse(c.data) as T;
    const signal = new AbortController().signal;
    const view = { id: c.job_id, queue, data, attempt: Math.min(c.failures + 1, c.attempts), attempts: c.attempts };
    // Given up (lost runs), or past its attempts with a failure not yet recorded: only report it.
    const givenUp = c.error !== null ? new Error(c.error) : c.lost >= LOST_RUNS ? lostRunsError(c.lost) : c.failures >= c.attempts ? new Error('attempts used up') : undefined;
    if (givenUp) return this.#report(queue, view, opts, givenUp, signal);
    try {
      await runWithTimeout(processor, view, undefined, opts.timeoutMs);
      return FINISH;
    } catch (err) {
      if (err instanceof RetryLater) return { finish: false, at: Date.now() + err.delayMs, failed: false };
      const failures = c.failures + 1;
      if (failures < c.attempts) return { finish: false, at: Date.now() + backoffAfter(failures, c.backoff_ms), failed: true };
      const reported = await this.#report(queue, view, opts, err as Error, signal);
      // A report that failed comes back as a report alone (failures reaches attempts).
      return reported.finish ? FINISH : { ...reported, failed: true };
    }
  }

  async #report<T>(queue: string, view: Omit<Job<T>, 'signal'>, opts: ProcessOptions<T>, err: Error, signal: AbortSignal): Promise<Outcome> {
    try {
      await opts.onFailed?.({ ...view, signal }, err);
    } catch (report) {
      this.#o.log.warn({ queue, jobId: view.id, err: (report as Error).message }, 'job failed for good; its failure could not be recorded, retrying that');
      return { finish: false, at: Date.now() + backoffAfter(view.attempts, 1000), failed: false, error: err.message };
    }
    this.#o.log.warn({ queue, jobId: view.id, err: err.message }, 'job failed for good');
    return FINISH;
  }

  #renew(): void {
    try {
      this.#store.renew([...this.#owned], Date.now() + this.#o.leaseMs);
    } catch (err) {
      this.#loopHealth.degraded(err);
    }
  }

  #open(): void {
    if (this.#closed) throw new JobEngineUnavailable('the job engine is closed');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    await Promise.allSettled(this.#loops);
    clearInterval(this.#renewal);
    this.#sqlite.close();
  }
}
