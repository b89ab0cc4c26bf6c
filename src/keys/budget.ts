// A key's daily budget: `dailyScans` scans per calendar day in UTC, refilled at 00:00 UTC.
// A calendar day (not a rolling 24 hours) because partners plan by the day and one reset
// time is easy to state: the 429 and the RateLimit header say how many seconds are left.
//
// Shared by every instance: in Redis when REDIS_URL is set (rate-limiter-flexible's
// RateLimiterRedis used as a counter that expires after the day), else in the database
// (api_key_usage, a conditional update). Neither falls back to a per-instance counter: a
// budget that could be spent once per instance is no budget, so an unreachable store is a
// 503 and nothing is spent.
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { refund, spend, usedOn } from '../storage/queries/apiKeys.ts';

export interface BudgetStore {
  used(keyId: string, day: string): Promise<number>;
  /** Spends n when used + n <= limit; never leaves more than limit spent. */
  spend(keyId: string, day: string, n: number, limit: number, ttlS: number): Promise<{ ok: boolean; used: number }>;
  refund(keyId: string, day: string, n: number): Promise<void>;
}

export function databaseBudget(db: Knex): BudgetStore {
  return {
    used: (keyId, day) => usedOn(db, keyId, day),
    spend: (keyId, day, n, limit) => spend(db, keyId, day, n, limit),
    refund: (keyId, day, n) => refund(db, keyId, day, n),
  };
}

/**
 * rate-limiter-flexible increments before it compares, so a refused spend would stay counted:
 * the counter is read first and a spend that cannot fit is never made; one that lost a race
 * (two instances spending the last scans at once) is given back at once.
 */
export function redisBudget(redis: Redis, prefix: string): BudgetStore {
  const counter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:budget`, points: Number.MAX_SAFE_INTEGER, duration: 2 * 86400 });
  const key = (keyId: string, day: string) => `${keyId}:${day}`;
  const used = async (keyId: string, day: string) => (await counter.get(key(keyId, day)))?.consumedPoints ?? 0;
  return {
    used,
    async spend(keyId, day, n, limit, ttlS) {
      if ((await used(keyId, day)) + n > limit) return { ok: false, used: await used(keyId, day) };
      let after: number;
      try {
        after = (await counter.consume(key(keyId, day), n, { customDuration: ttlS })).consumedPoints;
      } catch (e) {
        if (e instanceof RateLimiterRes) after = e.consumedPoints; // cannot happen below MAX_SAFE_INTEGER
        else throw e;
      }
      if (after <= limit) return { ok: true, used: after };
      await counter.reward(key(keyId, day), n);
      return { ok: false, used: Math.max(0, after - n) };
    },
    async refund(keyId, day, n) {
      await counter.reward(key(keyId, day), n);
    },
  };
}

/** The UTC day of `now` (YYYY-MM-DD) and the seconds until the next one starts. */
export function dayOf(now: Date): { day: string; resetS: number } {
  const day = now.toISOString().slice(0, 10);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day, resetS: Math.max(1, Math.ceil((next - now.getTime()) / 1000)) };
}
