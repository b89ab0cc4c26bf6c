// The job engine's port: the one interface work that outlives a request is written against
// (batch items, watch runs, webhook deliveries). Two adapters implement it: distributed.ts
// (BullMQ on Redis, shared by every instance) and embedded.ts (a queue table of our own in a
// local SQLite file, no extra server). Nothing here knows what a scan is.
//
// Guarantees, the same on both adapters (test/jobs/contract.test.ts runs one suite on each,
// test/jobs/crash.test.ts kills their processes):
// - At-least-once delivery. A job runs again when its process dies mid-run (after its lease
//   lapses: `leaseMs`), when it outruns `timeoutMs`, and, rarely, when an event loop blocked
//   past the lease lets another claim take it while the first still runs. So a processor must
//   make its effects idempotent by the job id (the batch item's archive write is conditional
//   on the item still being open, in the same transaction).
// - Enqueueing an id that is waiting, delayed, running or between retries is a no-op. Once a
//   job has finished (completed, or failed for good) its id may be enqueued again: a schedule
//   names each period in the id ("watch-<id>.<period>"), and the run enqueues the next period,
//   so a period fires once however many instances or redeliveries try to schedule it.
// - Priority: lower runs first among jobs that are ready at the same time (1 to 1000).
// - Attempts: a processor that throws is retried after backoffMs, 2 × backoffMs, 4 × … until
//   `attempts` runs have failed; then `onFailed` is called once, inside the last run.
// - Waiting is never timed: each run gets its whole `timeoutMs`, counted from the call of the
//   processor, and a processor never waits inside it for a shared resource (a per-address
//   slot, a full semaphore, a rate limit): it throws RetryLater(ms), which puts the job back
//   for ms without using an attempt, and the next run has a whole timeout again.
// - Lost runs: a run whose process dies (or stalls past its lease) is lost; after LOST_RUNS
//   lost runs the job is given up. Its next claim, in whichever process makes it and without
//   waiting for anything else, calls `onFailed` with an error saying so instead of the
//   processor, so the owner records the failure and a poison job (one that kills its runner
//   every time) fails once. An onFailed that throws is retried like a failed run.
// - cancel(queue, id): a job that has not started will not start; a running one finishes.
// - enqueue fails loudly (JobEngineUnavailable) when the backend cannot be reached within a
//   few seconds; it never waits forever (BullMQ's add does, taskforcesh/bullmq#995).
// - health(): "ok", or "degraded" with the reason while the engine cannot reach its backend
//   or claim jobs (it keeps retrying, with backoff, and recovers by itself). GET /health shows it.
// - close(): no new job starts; running ones finish (up to their timeout); connections close.

export interface EnqueueOptions {
  /** Stable id: [A-Za-z0-9._-], 1 to 200 characters, not all digits (BullMQ reads digits as its own ids). */
  jobId: string;
  /** 1 (first) to 1000 (last); default 100. */
  priority?: number;
  /** Not before this many milliseconds from now. */
  delayMs?: number;
  /** Runs in all, counting the first; default 3. */
  attempts?: number;
  /** Wait before the first retry; doubles each time. Default 1000. */
  backoffMs?: number;
}

export interface Job<T> {
  id: string;
  queue: string;
  data: T;
  /** 1 on the first run; counts failed runs, not RetryLater or crashes. */
  attempt: number;
  attempts: number;
  /** Aborts on timeoutMs and when the engine closes. */
  signal: AbortSignal;
}

export interface ProcessOptions<T> {
  /** Jobs of this queue running at once in this process. */
  concurrency: number;
  /** A run longer than this is aborted (job.signal) and counts as a failed attempt. */
  timeoutMs: number;
  /** Called once, inside the last failed run, when a job has used its attempts or lost LOST_RUNS runs. */
  onFailed?: (job: Job<T>, error: Error) => Promise<void>;
}

export type Processor<T> = (job: Job<T>) => Promise<void>;

export interface EngineHealth {
  state: 'ok' | 'degraded';
  /** Why it is degraded (the backend's error, in words). */
  reason?: string;
}

/** A queue's jobs now, across every instance sharing the engine (GET /metrics). */
export interface QueueCounts {
  queue: string;
  /** Ready to run now, not yet claimed. */
  waiting: number;
  /** Claimed and running (in any instance). */
  active: number;
  /** Due later: a delay, a backoff or a RetryLater (a watch's next scheduled run waits here). */
  delayed: number;
}

export interface JobEngine {
  readonly kind: 'distributed' | 'embedded';
  enqueue<T>(queue: string, data: T, opts: EnqueueOptions): Promise<void>;
  /** Many at once (a batch's items): all are enqueued or the call throws. */
  enqueueMany<T>(queue: string, jobs: ReadonlyArray<{ data: T; opts: EnqueueOptions }>): Promise<void>;
  cancel(queue: string, jobId: string): Promise<void>;
  /** Starts processing `queue` in this process; once per queue. */
  process<T>(queue: string, processor: Processor<T>, opts: ProcessOptions<T>): void;
  /** Each queue's jobs now, shared by every instance on this backend; throws JobEngineUnavailable when it cannot be read. */
  counts(queues: readonly string[]): Promise<QueueCounts[]>;
  /** Whether the engine can reach its backend and claim jobs now (cheap: no I/O). */
  health(): EngineHealth;
  close(): Promise<void>;
}

/** Thrown by a processor: run this job again in `delayMs`, without using an attempt. */
export class RetryLater extends Error {
  override name = 'RetryLater';
  readonly delayMs: number;
  constructor(delayMs: number, reason = 'retry later') {
    super(reason);
    this.delayMs = Math.max(0, Math.round(delayMs));
  }
}

/** The backend could not be reached; nothing was enqueued (or, for enqueueMany, possibly part: owners undo). */
export class JobEngineUnavailable extends Error {
  override name = 'JobEngineUnavailable';
}

export const DEFAULTS = { priority: 100, attempts: 3, backoffMs: 1000 } as const;

/** Runs a job may lose (its process died, or stalled past its lease) before it is given up. */
export const LOST_RUNS = 3;

/** The error onFailed gets for a job given up after LOST_RUNS lost runs. */
export function lostRunsError(lost: number): Error {
  return new Error(`given up after ${lost} lost runs: the process running it died (or stalled past its lease) each time`);
}

const ID = /^[A-Za-z0-9._-]{1,200}$/;

export function checkEnqueue(queue: string, opts: EnqueueOptions): Required<EnqueueOptions> {
  if (!ID.test(queue)) throw new TypeError(`queue name ${JSON.stringify(queue)} must match ${ID}`);
  if (!ID.test(opts.jobId) || /^[0-9]+$/.test(opts.jobId)) throw new TypeError(`jobId ${JSON.stringify(opts.jobId)} must match ${ID} and not be all digits`);
  const priority = opts.priority ?? DEFAULTS.priority;
  if (!Number.isInteger(priority) || priority < 1 || priority > 1000) throw new TypeError('priority must be a whole number from 1 to 1000');
  const attempts = opts.attempts ?? DEFAULTS.attempts;
  if (!Number.isInteger(attempts) || attempts < 1) throw new TypeError('attempts must be a whole number ≥ 1');
  return { jobId: opts.jobId, priority, attempts, delayMs: Math.max(0, Math.round(opts.delayMs ?? 0)), backoffMs: Math.max(0, Math.round(opts.backoffMs ?? DEFAULTS.backoffMs)) };
}

/** backoffMs × 2^(failed − 1). */
export function backoffAfter(failed: number, backoffMs: number): number {
  return backoffMs * 2 ** Math.max(0, failed - 1);
}

/**
 * Runs the processor with the run's timeout folded into its signal. Resolves or rejects with
 * what the processor did; a timeout rejects even if the processor ignores its signal.
 */
export async function runWithTimeout<T>(processor: Processor<T>, job: Omit<Job<T>, 'signal'>, outer: AbortSignal | undefined, timeoutMs: number): Promise<void> {
  const controller = new AbortController();
  const abort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', abort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`job ran longer than its ${timeoutMs} ms timeout`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([processor({ ...job, signal: controller.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', abort);
  }
}

/** Resolves with p, or rejects with JobEngineUnavailable after ms. */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JobEngineUnavailable(`${what}: no answer within ${ms} ms`)), ms);
    })]);
  } catch (err) {
    if (err instanceof JobEngineUnavailable) throw err;
    throw new JobEngineUnavailable(`${what}: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}
