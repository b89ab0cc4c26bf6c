// Fairness between watches: at most PER_WATCH_IN_FLIGHT webhook attempts of one watch at once,
// across every instance, so a receiver that hangs holds up its own events only. A delivery job
// takes one of its watch's slots without waiting; with none free it goes back to the queue
// (RetryLater: no attempt spent, no worker held), and the worker takes the next job, which is
// most likely another watch's. Modelled on the per-address bound of batches
// (src/batches/address-limit.ts): with Redis a redis-semaphore Semaphore per watch (its slots
// expire if an instance dies, refreshed while held); without, a count per watch in this
// process, which is the whole of the embedded engine's queue.
import type { Redis } from 'ioredis';
import { Semaphore } from 'redis-semaphore';

/** Attempts of one watch's webhook in flight at once. */
export const PER_WATCH_IN_FLIGHT = 2;

export interface WatchSlot {
  release(): Promise<void>;
}

export interface WatchSlots {
  /** One of the watch's slots, or undefined when all are taken. Never waits for one. */
  tryTake(watchId: string): Promise<WatchSlot | undefined>;
}

export function localWatchSlots(perWatch = PER_WATCH_IN_FLIGHT): WatchSlots {
  const held = new Map<string, number>();
  return {
    async tryTake(watchId) {
      const n = held.get(watchId) ?? 0;
      if (n >= perWatch) return undefined;
      held.set(watchId, n + 1);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          const left = (held.get(watchId) ?? 1) - 1;
          if (left > 0) held.set(watchId, left);
          else held.delete(watchId);
        },
      };
    },
  };
}

export function redisWatchSlots(redis: Redis, perWatch = PER_WATCH_IN_FLIGHT, opts: { prefix?: string; lockTimeoutMs?: number } = {}): WatchSlots {
  const lockTimeout = opts.lockTimeoutMs ?? 15_000;
  return {
    async tryTake(watchId) {
      const semaphore = new Semaphore(redis, `${opts.prefix ?? 'ar'}:webhook-slots:${watchId}`, perWatch, {
        // One try: a full semaphore is an answer, not something to wait for.
        acquireAttemptsLimit: 1, lockTimeout, refreshInterval: lockTimeout / 3,
        // A slot lost (Redis gone for longer than the lock) only loosens fairness for one attempt.
        onLockLost: () => undefined,
      });
      if (!(await semaphore.tryAcquire())) return undefined;
      return { release: () => semaphore.release().catch(() => undefined) };
    },
  };
}
