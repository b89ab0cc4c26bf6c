// The claim loop of the embedded engine over liteque's SqliteQueue (its public API: claim with
// a lease, then finalize). liteque's own Runner races every task against a lease timer it never
// clears, so each finished task left a live timer of the lease's length (50 s for a watch run):
// a stopped service could not exit until the last one fired (test/watches/api.test.ts took 50 s
// to close after 2 s of tests). This loop sets no timer but its idle poll, which close() ends;
// a task's own timeout is runWithTimeout's (src/jobs/port.ts), cleared when the task ends.
import { setTimeout as sleep } from 'node:timers/promises';
import { RetryAfterError, type SqliteQueue } from 'liteque';

/** What a task's run may do beyond succeeding: throw RetryAfterError to be put back after its delay without spending a claim. */
export type RunTask<T> = (task: { id: number; data: T }) => Promise<void>;

export interface ClaimLoopOptions {
  concurrency: number;
  pollMs: number;
  /** The lease: a claimed task not finalized within it is claimed again (its process died). */
  leaseSecs: number;
  /** Ends the loop: no claim after it; tasks under way are awaited. */
  stop: AbortSignal;
  /** A task whose outcome could not be written (its lease then lapses and it is claimed again). */
  onLost: (err: unknown, taskId: number) => void;
}

export async function claimLoop<T>(queue: SqliteQueue<T>, run: RunTask<T>, o: ClaimLoopOptions): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  while (!o.stop.aborted) {
    if (inFlight.size >= o.concurrency) {
      await Promise.race(inFlight);
      continue;
    }
    const task = await queue.attemptDequeue({ timeoutSecs: o.leaseSecs });
    if (!task) {
      await sleep(o.pollMs, undefined, { signal: o.stop }).catch(() => undefined);
      continue;
    }
    const p: Promise<void> = runOne(queue, task, run).catch((err: unknown) => o.onLost(err, task.id)).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.allSettled(inFlight);
}

type Claimed = NonNullable<Awaited<ReturnType<SqliteQueue<unknown>['attemptDequeue']>>>;

async function runOne<T>(queue: SqliteQueue<T>, task: Claimed, run: RunTask<T>): Promise<void> {
  const allocation = task.allocationId;
  try {
    await run({ id: task.id, data: JSON.parse(task.payload) as T });
    await queue.finalize(task.id, allocation, 'completed');
  } catch (err) {
    if (err instanceof RetryAfterError) {
      await queue.finalize(task.id, allocation, 'pending_retry', new Date(Date.now() + err.delayMs), true);
      return;
    }
    // As liteque's Runner: an unexpected failure spends the claim; none left, the task goes.
    await queue.finalize(task.id, allocation, task.numRunsLeft <= 0 ? 'failed' : 'pending_retry');
  }
}
