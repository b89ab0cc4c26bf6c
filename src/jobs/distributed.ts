// The port on BullMQ (Redis), shared by every instance that names the same Redis and
// REDIS_KEY_PREFIX. Why BullMQ: the established Node engine (MIT, about 12.6 M downloads a
// week), with what the port needs built in: custom job ids that deduplicate, priorities,
// delays, attempts with exponential backoff, a lock per running job renewed while it runs
// and stalled-job recovery when its process dies, DelayedError for "later, without an
// attempt", and removal of waiting jobs. Its documented limit is at-least-once delivery: a
// job whose lock lapses (a dead process, or an event loop blocked past the lock) runs again
// (taskforcesh/bullmq#439), which the port states and processors absorb.
//
// Connections: BullMQ refuses ioredis' keyPrefix, so REDIS_KEY_PREFIX goes into BullMQ's own
// `prefix` ("<REDIS_KEY_PREFIX>bull"). Workers get connections with maxRetriesPerRequest:
// null, as BullMQ requires for blocking reads; the enqueueing connection fails fast instead
// (no offline queue, one retry) and every add is bounded in time, so a lost Redis is a loud
// JobEngineUnavailable, never a request that waits forever (taskforcesh/bullmq#995).
import { DelayedError, Queue, Worker, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  checkEnqueue, JobEngineUnavailable, LOST_RUNS, lostRunsError, RetryLater, runWithTimeout, within,
  type EngineHealth, type EnqueueOptions, type JobEngine, type Processor, type ProcessOptions, type QueueCounts,
} from './port.ts';

export interface DistributedOptions {
  redisUrl: string;
  /** REDIS_KEY_PREFIX; BullMQ's keys go under "<keyPrefix>bull". */
  keyPrefix: string;
  log: Logger;
  /** How long a running job's lock lasts without renewal (renewed every half): a dead instance's jobs are retried after about this. */
  leaseMs?: number;
  /** How long an enqueue may take before it is declared failed. */
  enqueueTimeoutMs?: number;
  /** How long close() lets BullMQ's workers and queues close once no job of ours runs. */
  closeGraceMs?: number;
  /** How often health() is refreshed by a PING (a paused Redis keeps its connections open, so only an answer tells). */
  healthEveryMs?: number;
}

/** Whether p settles within ms (it is left running either way). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => { timer = setTimeout(() => r(false), ms); });
  try {
    return await Promise.race([p.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The job's data; `r`: given up for this reason, its failure not yet recorded (only onFailed runs). */
interface Envelope<T> { d: T; r?: string }

export class DistributedJobEngine implements JobEngine {
  readonly kind = 'distributed';
  readonly #o: Required<Omit<DistributedOptions, 'log'>> & { log: Logger };
  readonly #prefix: string;
  readonly #producer: Redis;
  readonly #queues = new Map<string, Queue>();
  readonly #workers: Worker[] = [];
  readonly #connections: Redis[] = [];
  /** Processors running in this process: close() waits for these, not for BullMQ's loops. */
  readonly #running = new Set<Promise<void>>();
  #closed = false;
  #health: EngineHealth = { state: 'ok' };
  readonly #healthTimer: NodeJS.Timeout;

  constructor(o: DistributedOptions) {
    this.#o = { leaseMs: 30_000, enqueueTimeoutMs: 5_000, closeGraceMs: 3_000, healthEveryMs: 5_000, ...o };
    this.#prefix = `${o.keyPrefix}bull`;
    this.#producer = this.#connection({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.#healthTimer = setInterval(() => void this.#checkHealth(), this.#o.healthEveryMs);
    this.#healthTimer.unref();
    void this.#checkHealth();
  }

  health(): EngineHealth {
    return { ...this.#health };
  }

  /** One PING, bounded in time: degraded while Redis does not answer, ok from its first answer. */
  async #checkHealth(): Promise<void> {
    if (this.#closed) return;
    try {
      await within(this.#producer.ping(), Math.min(2_000, this.#o.healthEveryMs), 'redis ping');
      if (this.#health.state !== 'ok') this.#o.log.info('job engine: redis answers again');
      this.#health = { state: 'ok' };
    } catch (err) {
      const reason = `redis does not answer: ${(err as Error).message.slice(0, 200)}`;
      if (this.#health.reason !== reason) this.#o.log.warn(`job engine degraded: ${reason}`);
      this.#health = { state: 'degraded', reason };
    }
  }

  #connection(extra: Record<string, unknown>): Redis {
    const c = new Redis(this.#o.redisUrl, { ...extra, lazyConnect: false });
    c.on('error', (err) => this.#o.log.warn({ err: err.message }, 'job engine: redis unavailable'));
    this.#connections.push(c);
    return c;
  }

  #queue(name: string): Queue {
    let q = this.#queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.#producer, prefix: this.#prefix });
      q.on('error', (err) => this.#o.log.warn({ err: err.message, queue: name }, 'job engine: queue error'));
      this.#queues.set(name, q);
    }
    return q;
  }

  #jobOptions(queue: string, opts: EnqueueOptions) {
    const o = checkEnqueue(queue, opts);
    return {
      jobId: o.jobId, priority: o.priority, delay: o.delayMs, attempts: o.attempts,
      backoff: { type: 'exponential' as const, delay: o.backoffMs },
      // Finished jobs leave Redis, so their ids can be used again (a schedule's next period).
      removeOnComplete: true, removeOnFail: true,
    };
  }

  async enqueue<T>(queue: string, data: T, opts: EnqueueOptions): Promise<void> {
    const jobOpts = this.#jobOptions(queue, opts);
    if (this.#closed) throw new JobEngineUnavailable('the job engine is closed');
    await within(this.#queue(queue).add(queue, { d: data } satisfies Envelope<T>, jobOpts), this.#o.enqueueTimeoutMs, `enqueue ${queue}`);
  }

  async enqueueMany<T>(queue: string, jobs: ReadonlyArray<{ data: T; opts: EnqueueOptions }>): Promise<void> {
    const bulk = jobs.map((j) => ({ name: queue, data: { d: j.data } satisfies Envelope<T>, opts: this.#jobOptions(queue, j.opts) }));
    if (this.#closed) throw new JobEngineUnavailable('the job engine is closed');
    // addBulk is one MULTI: a chunk is added whole or not at all.
    for (let i = 0; i < bulk.length; i += 1000) {
      await within(this.#queue(queue).addBulk(bulk.slice(i, i + 1000)), this.#o.enqueueTimeoutMs, `enqueue ${queue}`);
    }
  }

  async cancel(queue: string, jobId: string): Promise<void> {
    // remove() leaves an active (locked) job alone: what is running finishes.
    await within(this.#queue(queue).remove(jobId), this.#o.enqueueTimeoutMs, `cancel ${queue}`);
  }

  async counts(queues: readonly string[]): Promise<QueueCounts[]> {
    return within(Promise.all(queues.map(async (queue) => {
      // BullMQ keeps prioritized jobs apart from plain waiting ones; both are ready to run.
      const c = await this.#queue(queue).getJobCounts('wait', 'prioritized', 'active', 'delayed');
      return { queue, waiting: (c.wait ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0 };
    })), this.#o.enqueueTimeoutMs, 'count jobs');
  }

  process<T>(queue: string, processor: Processor<T>, opts: ProcessOptions<T>): void {
    const run = async (job: BullJob<Envelope<T>>, token?: string, signal?: AbortSignal) => {
      const attempts = job.opts.attempts ?? 1;
      const view = { id: job.id!, queue, data: job.data.d, attempt: Math.min(job.attemptsMade + 1, attempts), attempts };
      // Given up: after LOST_RUNS lost runs (stalled: its process died), or earlier with its
      // failure not yet recorded. Only onFailed runs; while it throws, the job comes back later
      // without spending an attempt, so a failure is never dropped with the job.
      const reported = async (given: Error) => {
        try {
          if (opts.onFailed) await opts.onFailed({ ...view, signal: new AbortController().signal }, given);
        } catch (report) {
          this.#o.log.warn({ queue, jobId: job.id, err: (report as Error).message }, 'job failed for good; its failure could not be recorded, retrying that');
          await job.updateData({ ...job.data, r: given.message });
          await job.moveToDelayed(Date.now() + 5_000, token);
          throw new DelayedError();
        }
        this.#o.log.warn({ queue, jobId: job.id, err: given.message }, 'job failed for good');
      };
      if (job.data.r !== undefined || job.stalledCounter >= LOST_RUNS) {
        await reported(job.data.r !== undefined ? new Error(job.data.r) : lostRunsError(job.stalledCounter));
        return;
      }
      const running = runWithTimeout(processor, view, signal, opts.timeoutMs);
      const tracked = running.catch(() => {});
      this.#running.add(tracked);
      try {
        await running;
      } catch (err) {
        if (err instanceof RetryLater) {
          await job.moveToDelayed(Date.now() + err.delayMs, token);
          throw new DelayedError();
        }
        if (view.attempt < attempts) throw err;
        await reported(err as Error);
        // Recorded: the job ends (its last attempt failed) without another run.
        return;
      } finally {
        this.#running.delete(tracked);
      }
    };
    const worker = new Worker<Envelope<T>>(queue, run, {
      connection: this.#connection({ maxRetriesPerRequest: null }),
      prefix: this.#prefix,
      concurrency: opts.concurrency,
      lockDuration: this.#o.leaseMs,
      stalledInterval: this.#o.leaseMs,
      // A job whose instance died is retried; after LOST_RUNS lost runs its next run reports it
      // given up (above). BullMQ's own limit stays above ours, as a backstop that reports nothing.
      maxStalledCount: LOST_RUNS + 2,
    });
    worker.on('error', (err) => this.#o.log.warn({ err: err.message, queue }, 'job engine: worker error'));
    worker.on('failed', (job, err) => {
      if (job && job.attemptsMade < (job.opts.attempts ?? 1) && !/stalled/i.test(err.message)) return;
      this.#o.log.warn({ queue, jobId: job?.id, err: err.message }, 'job failed for good');
    });
    this.#workers.push(worker);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#healthTimer);
    // Workers stop taking jobs (pause without waiting), then our running processors end
    // within their own timeouts. Only then are the workers closed, with force: BullMQ's
    // graceful close waits on its fetch loop, which never ends when it runs right after a
    // Redis restart (seen with 6.7, test/faults/redis-down.test.ts), and force only skips the
    // wait for running jobs, which we have already waited for ourselves.
    await settlesWithin(Promise.allSettled(this.#workers.map((w) => w.pause(true))), this.#o.closeGraceMs);
    await Promise.allSettled([...this.#running]);
    if (!(await settlesWithin(Promise.allSettled(this.#workers.map((w) => w.close(true))), this.#o.closeGraceMs))) {
      this.#o.log.warn({ graceMs: this.#o.closeGraceMs }, 'job engine: workers did not close; cutting their Redis connections');
    }
    for (const c of this.#connections) c.disconnect();
    await settlesWithin(Promise.allSettled([...this.#queues.values()].map((q) => q.close())), this.#o.closeGraceMs);
  }
}
