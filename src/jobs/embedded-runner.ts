// The embedded engine's claim loop, one per processed queue. It survives every error: a claim
// that fails (the file locked by another process, the disk full, a read-only file) marks the
// engine degraded with the reason, and the loop tries again after a backoff that doubles up to
// MAX_BACKOFF_MS; the first claim that works again marks it ok. A run's outcome that cannot be
// written is retried the same way while its lease is kept; only a loop that is stopping gives
// up on it, and then the lease lapses and the job runs again (at-least-once, as the port says).
import { setTimeout as sleep } from 'node:timers/promises';

export const MAX_BACKOFF_MS = 5_000;

/** What a claim loop reports to its engine. */
export interface LoopHealth {
  ok(): void;
  degraded(err: unknown): void;
}

export interface ClaimLoopOptions<C> {
  concurrency: number;
  pollMs: number;
  /** Ends the loop: no claim after it; runs under way are awaited. */
  stop: AbortSignal;
  /** The next ready job, claimed (throws when the file cannot be written). */
  claim: () => C | undefined;
  /** Runs a claimed job to its end, outcome written (writes retried through `write`). */
  run: (claimed: C) => Promise<void>;
  health: LoopHealth;
  /** Resolves when a job may have become ready (an enqueue in this process), to cut the poll short. */
  nudged: () => Promise<void>;
}

export function backoffMs(failuresInARow: number, pollMs: number): number {
  return Math.min(MAX_BACKOFF_MS, Math.max(pollMs, 50) * 2 ** Math.min(failuresInARow, 10));
}

export async function claimLoop<C>(o: ClaimLoopOptions<C>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failing = 0;
  while (!o.stop.aborted) {
    if (inFlight.size >= o.concurrency) {
      await Promise.race(inFlight);
      continue;
    }
    let claimed: C | undefined;
    try {
      claimed = o.claim();
      failing = 0;
      o.health.ok();
    } catch (err) {
      o.health.degraded(err);
      await sleep(backoffMs(failing++, o.pollMs), undefined, { signal: o.stop }).catch(() => undefined);
      continue;
    }
    if (claimed === undefined) {
      await Promise.race([sleep(o.pollMs, undefined, { signal: o.stop }).catch(() => undefined), o.nudged()]);
      continue;
    }
    const p: Promise<void> = o.run(claimed).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.allSettled(inFlight);
}

/**
 * Writes a run's outcome, retrying with backoff while it fails (the engine degraded meanwhile).
 * Gives up only once `stop` has aborted and a few more tries failed: false then.
 */
export async function write(fn: () => void, health: LoopHealth, stop: AbortSignal, pollMs: number): Promise<boolean> {
  for (let i = 0; ; i++) {
    try {
      fn();
      return true;
    } catch (err) {
      health.degraded(err);
      if (stop.aborted && i >= 3) return false;
      await sleep(backoffMs(i, pollMs));
    }
  }
}
