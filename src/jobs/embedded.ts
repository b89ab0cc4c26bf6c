// The port on liteque (MIT; Karakeep's queue): jobs in a local SQLite file, run in this
// process, no extra server. liteque brings the queue itself: a table of tasks claimed in a
// transaction, priorities, `delayMs`, an idempotency key unique per queue, a lease
// (`timeoutSecs`) after which a task whose runner died is claimed again. Its gaps are filled
// here through its public API only, with one small table of our own beside its tasks
// (embedded_jobs), keyed by liteque's task id:
// - the claim loop is ours (src/jobs/embedded-runner.ts): liteque's Runner leaves a lease-long
//   timer behind every task, which held a stopped process open;
// - attempts and exponential backoff: liteque retries at once and counts every claim, so a
//   failed run is recorded here and put back with RetryAfterError(backoff), which delays it
//   without spending a claim; liteque's own run budget then only counts crashes;
// - cancel: liteque removes only a whole queue, so a job is marked here and dropped when it is
//   claimed; one never started is also removed at once with the allocation id its enqueue
//   returned (SqliteQueue.finalize deletes only while that id is unchanged, i.e. unclaimed).
//
// better-sqlite3 ≥ 11.10 refuses a transaction whose function returns a promise
// (WiseLibs/better-sqlite3#1364), and liteque 0.8 claims a task inside drizzle's
// transaction with an async function, so as published it fails on our better-sqlite3 13
// (karakeep-app/karakeep#1594; Karakeep pins better-sqlite3 11.3). liteque is given a drizzle
// handle whose transaction(fn) is fn(db): on the better-sqlite3 liteque was built against,
// that transaction committed after its first statement anyway, and the claim is safe without
// one, because it is a conditional update on the task's allocation id and one process alone
// writes this file. liteque's code is not touched.
//
// The file holds only this instance's jobs: two instances with two databases never share a
// queue. A restart resumes every job left in it (a claimed one after its lease lapses).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrateDB, RetryAfterError, SqliteQueue, type buildDBClient } from 'liteque';
import type { Logger } from 'pino';
import { claimLoop } from './embedded-runner.ts';
import { backoffAfter, checkEnqueue, JobEngineUnavailable, RetryLater, runWithTimeout, type EnqueueOptions, type JobEngine, type Processor, type ProcessOptions } from './port.ts';

export interface EmbeddedOptions {
  /** The SQLite file of the queue, or ':memory:'. */
  file: string;
  log: Logger;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /** Extra lease beyond a run's timeout before a claimed job counts as abandoned (its process died). */
  graceMs?: number;
}

interface Envelope<T> { d: T; j: string; a: number; b: number }
type LqDb = ReturnType<typeof buildDBClient>;

/** Claims a job may lose to crashes (its process dying, its lease lapsing) before it is given up. */
const CRASH_CLAIMS = 3;

export class EmbeddedJobEngine implements JobEngine {
  readonly kind = 'embedded';
  readonly #sqlite: Database.Database;
  readonly #db: LqDb;
  readonly #o: Required<Omit<EmbeddedOptions, 'log'>> & { log: Logger };
  readonly #queues = new Map<string, SqliteQueue<Envelope<unknown>>>();
  readonly #runners: Array<{ done: Promise<void>; stop: AbortController }> = [];
  readonly #s: ReturnType<EmbeddedJobEngine['statements']>;
  #closed = false;

  constructor(o: EmbeddedOptions) {
    this.#o = { pollMs: 250, graceMs: 5_000, ...o };
    if (o.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(o.file)), { recursive: true });
    this.#sqlite = new Database(o.file, { timeout: 5000 });
    this.#sqlite.pragma('journal_mode = WAL');
    this.#sqlite.pragma('synchronous = NORMAL');
    const db = drizzle(this.#sqlite);
    this.#db = new Proxy(db, {
      get: (target, prop, receiver) => (prop === 'transaction' ? (fn: (tx: unknown) => unknown) => fn(target) : Reflect.get(target, prop, receiver)),
    }) as unknown as LqDb;
    migrateDB(this.#db);
    this.#sqlite.exec(`create table if not exists embedded_jobs (
      task_id integer primary key, queue text not null, job_id text not null, allocation_id text,
      failures integer not null default 0, cancelled integer not null default 0, unique (queue, job_id))`);
    this.#s = this.statements();
  }

  private statements() {
    const db = this.#sqlite;
    return {
      remember: db.prepare('insert or replace into embedded_jobs (task_id, queue, job_id, allocation_id) values (?, ?, ?, ?)'),
      byTask: db.prepare<[number], { failures: number; cancelled: number }>('select failures, cancelled from embedded_jobs where task_id = ?'),
      byJob: db.prepare<[string, string], { task_id: number; allocation_id: string | null }>('select task_id, allocation_id from embedded_jobs where queue = ? and job_id = ?'),
      failed: db.prepare('insert into embedded_jobs (task_id, queue, job_id, failures) values (?, ?, ?, 1) on conflict (task_id) do update set failures = failures + 1'),
      cancel: db.prepare('update embedded_jobs set cancelled = 1 where queue = ? and job_id = ?'),
      forget: db.prepare('delete from embedded_jobs where task_id = ?'),
    };
  }

  #queue(name: string): SqliteQueue<Envelope<unknown>> {
    let q = this.#queues.get(name);
    if (!q) {
      q = new SqliteQueue<Envelope<unknown>>(name, this.#db, { defaultJobArgs: { numRetries: CRASH_CLAIMS }, keepFailedJobs: false });
      this.#queues.set(name, q);
    }
    return q;
  }

  async #add<T>(queue: string, data: T, opts: EnqueueOptions): Promise<void> {
    const o = checkEnqueue(queue, opts);
    const task = await this.#queue(queue).enqueue({ d: data, j: o.jobId, a: o.attempts, b: o.backoffMs }, {
      idempotencyKey: o.jobId, priority: o.priority, delayMs: o.delayMs, numRetries: CRASH_CLAIMS,
    });
    // undefined: that id is already queued (a no-op, as the port says).
    if (task) this.#s.remember.run(task.id, queue, o.jobId, task.allocationId);
  }

  async enqueue<T>(queue: string, data: T, opts: EnqueueOptions): Promise<void> {
    this.#open();
    await this.#add(queue, data, opts);
  }

  async enqueueMany<T>(queue: string, jobs: ReadonlyArray<{ data: T; opts: EnqueueOptions }>): Promise<void> {
    this.#open();
    for (const j of jobs) checkEnqueue(queue, j.opts);
    // One insert each (liteque's own statement): an explicit transaction around them would
    // catch the runner's claims, interleaved at each await, inside it. A failure part-way
    // leaves the earlier ones queued, as the port allows; owners undo what they own.
    for (const j of jobs) await this.#add(queue, j.data, j.opts);
  }

  async cancel(queue: string, jobId: string): Promise<void> {
    this.#open();
    const ref = this.#s.byJob.get(queue, jobId);
    if (!ref) return;
    this.#s.cancel.run(queue, jobId);
    // Removes the task only while it has never been claimed (its allocation id unchanged).
    if (ref.allocation_id) await this.#queue(queue).finalize(ref.task_id, ref.allocation_id, 'completed');
  }

  process<T>(queue: string, processor: Processor<T>, opts: ProcessOptions<T>): void {
    this.#open();
    const abort = new AbortController();
    const stop = new AbortController();
    const run = async (task: { id: number; data: Envelope<unknown> }) => {
      // A claim racing close(): put it back untouched.
      if (this.#closed) throw new RetryAfterError(0);
      const taskId = task.id;
      const env = task.data as Envelope<T>;
      const state = this.#s.byTask.get(taskId);
      if (state?.cancelled) {
        this.#s.forget.run(taskId);
        return;
      }
      const failures = state?.failures ?? 0;
      const view = { id: env.j, queue, data: env.d, attempt: failures + 1, attempts: env.a };
      try {
        // A job past its attempts whose failure could not be reported last time only reports it.
        if (failures < env.a) await runWithTimeout(processor, view, abort.signal, opts.timeoutMs);
        else throw new Error('attempts used up');
        this.#s.forget.run(taskId);
      } catch (err) {
        if (err instanceof RetryLater) throw new RetryAfterError(err.delayMs);
        if (abort.signal.aborted) throw new RetryAfterError(0); // closing: not a failure of the job
        if (failures < env.a) this.#s.failed.run(taskId, queue, env.j);
        if (failures + 1 < env.a) throw new RetryAfterError(backoffAfter(failures + 1, env.b));
        try {
          await opts.onFailed?.({ ...view, attempt: Math.min(failures + 1, env.a), signal: abort.signal }, err as Error);
        } catch (report) {
          this.#o.log.warn({ queue, jobId: env.j, err: (report as Error).message }, 'job failed for good; its failure could not be recorded, retrying that');
          throw new RetryAfterError(backoffAfter(env.a, env.b));
        }
        this.#o.log.warn({ queue, jobId: env.j, err: (err as Error).message }, 'job failed for good');
        this.#s.forget.run(taskId);
      }
    };
    const done = claimLoop(this.#queue(queue), run, {
      concurrency: opts.concurrency,
      pollMs: this.#o.pollMs,
      // The lease: past the run's own timeout, so only a dead runner's claim lapses.
      leaseSecs: Math.ceil((opts.timeoutMs + this.#o.graceMs) / 1000),
      stop: stop.signal,
      onLost: (err, taskId) => this.#o.log.warn({ err, queue, taskId }, 'a job outcome could not be recorded; it runs again when its lease lapses'),
    }).catch((err: unknown) => this.#o.log.error({ err, queue }, 'job runner stopped'));
    this.#runners.push({ done, stop });
  }

  #open(): void {
    if (this.#closed) throw new JobEngineUnavailable('the job engine is closed');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const r of this.#runners) r.stop.abort();
    await Promise.allSettled(this.#runners.map((r) => r.done));
    this.#sqlite.close();
  }
}
