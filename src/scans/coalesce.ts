// Coalescing and single-flight for identical scans (same domain and profile, no `fresh`).
//
// - recent: a just-completed result is served for COALESCE_WINDOW_S, from memory or, with
//   REDIS_URL, from Redis so every instance sees it.
// - in flight: concurrent identical requests on one instance share one promise; across
//   instances a Redis lock (SET NX PX) elects one scanner and the others poll the recent
//   cache until the result lands or the lock vanishes (then they scan themselves).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** A completed scan as any later identical request may see it (never holds the upload token). */
export interface Completed {
  body: Record<string, unknown>;
  completedAtMs: number;
}

export interface RecentStore {
  get(key: string): Promise<Completed | null>;
  put(key: string, value: Completed, ttlMs: number): Promise<void>;
}

/**
 * Results kept for the window in this process. Bounded by count as well as by the window: the
 * window alone held every report an instance finished in 45 s, some 32 KiB of objects each
 * (630 reports, 20 MiB, at 14 batch items a second in a heap snapshot of a batch run), which
 * grows with the instance's pace rather than with any bound. 1,024 leaves that pace room (about
 * 23 scans a second over the window) and binds only above it, where a repeat of a scan pushed
 * out is scanned again (the per-domain limit still holds).
 */
export const RECENT_MAX = 1024;

export function memoryRecentStore(nowMs: () => number, max = RECENT_MAX): RecentStore {
  // lru-cache's clock is the caller's (tests move it), read afresh each time (ttlResolution 0).
  const cache = new LRUCache<string, Completed>({ max, perf: { now: nowMs }, ttlResolution: 0 });
  return {
    async get(key) {
      return cache.get(key) ?? null;
    },
    async put(key, value, ttlMs) {
      // A ttl of 0 would mean "for ever" to lru-cache: a window of 0 keeps nothing.
      if (ttlMs <= 0) return;
      // Expired reports go at every put, not only when the count pushes them out.
      cache.purgeStale();
      cache.set(key, value, { ttl: ttlMs });
    },
  };
}

export function redisRecentStore(redis: Redis, prefix = 'ar:recent'): RecentStore {
  return {
    async get(key) {
      const raw = await redis.get(`${prefix}:${key}`);
      return raw === null ? null : (JSON.parse(raw) as Completed);
    },
    async put(key, value, ttlMs) {
      if (ttlMs > 0) await redis.set(`${prefix}:${key}`, JSON.stringify(value), 'PX', Math.ceil(ttlMs));
    },
  };
}

export type Shared<T> = { leader: true; shared: Completed; own: T } | { leader: false; shared: Completed };

export interface CoalescerOptions {
  windowMs: number;
  store: RecentStore;
  nowMs: () => number;
  /** Cross-instance single flight; leave unset for one instance. */
  redis?: Redis;
  /** How long a remote scan may hold the lock (the scan deadline plus margin). */
  lockTtlMs?: number;
  pollMs?: number;
  prefix?: string;
}

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export class Coalescer {
  private readonly flights = new Map<string, Promise<Shared<unknown>>>();
  private readonly opts: CoalescerOptions;

  constructor(opts: CoalescerOptions) {
    this.opts = opts;
  }

  /** A result completed less than the window ago, if any. */
  async recent(key: string): Promise<Completed | null> {
    if (this.opts.windowMs <= 0) return null;
    const hit = await this.opts.store.get(key).catch(() => null);
    if (!hit) return null;
    const age = this.opts.nowMs() - hit.completedAtMs;
    return age >= 0 && age < this.opts.windowMs ? hit : null;
  }

  /** Records a result completed outside `share` (a `fresh` scan) for later identical requests. */
  async remember(key: string, value: Completed): Promise<void> {
    await this.opts.store.put(key, value, this.opts.windowMs).catch(() => undefined);
  }

  /**
   * Runs `run` unless an identical scan is already in flight, in which case the caller
   * shares that scan's result. Only the caller whose `run` actually executed gets `own`.
   */
  async share<T>(key: string, run: () => Promise<{ shared: Completed; own: T }>): Promise<Shared<T>> {
    const existing = this.flights.get(key) as Promise<Shared<T>> | undefined;
    if (existing) {
      const done = await existing;
      return { leader: false, shared: done.shared };
    }
    const flight = this.lead(key, run);
    this.flights.set(key, flight as Promise<Shared<unknown>>);
    flight.then(
      () => this.flights.delete(key),
      () => this.flights.delete(key),
    );
    // The creator of the flight is its leader, unless another instance ran the scan.
    return flight;
  }

  private async lead<T>(key: string, run: () => Promise<{ shared: Completed; own: T }>): Promise<Shared<T>> {
    const { redis } = this.opts;
    const lockKey = `${this.opts.prefix ?? 'ar:flight'}:${key}`;
    const owner = randomUUID();
    let locked = false;
    if (redis) {
      locked = (await redis.set(lockKey, owner, 'PX', this.opts.lockTtlMs ?? 60_000, 'NX').catch(() => 'OK')) === 'OK';
      if (!locked) {
        const remote = await this.waitForRemote(key, lockKey);
        if (remote) return { leader: false, shared: remote };
        locked = true; // the other instance gave up; we scan (best effort, no second lock round)
      }
    }
    try {
      const result = await run();
      await this.opts.store.put(key, result.shared, this.opts.windowMs).catch(() => undefined);
      return { leader: true, ...result };
    } finally {
      if (redis && locked) await redis.eval(RELEASE, 1, lockKey, owner).catch(() => undefined);
    }
  }

  private async waitForRemote(key: string, lockKey: string): Promise<Completed | null> {
    const deadline = Date.now() + (this.opts.lockTtlMs ?? 60_000);
    const poll = this.opts.pollMs ?? 200;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, poll));
      const hit = await this.opts.store.get(key).catch(() => null);
      if (hit) return hit;
      if ((await this.opts.redis!.exists(lockKey).catch(() => 0)) === 0) return (await this.opts.store.get(key).catch(() => null));
    }
    return null;
  }
}
