// A key's daily budget: `dailyScans` scans per calendar day in UTC, refilled at 00:00 UTC.
// A calendar day (not a rolling 24 hours) because partners plan by the day and one reset
// time is easy to state: the 429 and the RateLimit header say how many seconds are left.
//
// Shared by every instance: in Redis when REDIS_URL is set (a counter that expires after the
// day, spent by one atomic Lua script), else in the database
// (api_key_usage, a conditional update). Neither falls back to a per-instance counter: a
// budget that could be spent once per instance is no budget, so an unreachable store is a
// 503 and nothing is spent.
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
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
 * Spends n when it fits, in one Lua script: Redis runs it whole, so the check and the spend
 * are one step and no other spend can come between them. (The counter used to be read, then
 * incremented, then given back when a racing spend had pushed it over: under contention a
 * spend that did fit was refused, because it read a counter inflated by another spend that
 * was about to be given back.) The key and its integer value are as rate-limiter-flexible's
 * RateLimiterRedis kept them ("<prefix>:budget:<keyId>:<day>"), so a day's spending carries over.
 * Returns {1, used after} or {0, used}.
 */
const SPEND = `local used = tonumber(redis.call('get', KEYS[1]) or '0')
local n = tonumber(ARGV[1])
if used + n > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('incrby', KEYS[1], n)
if redis.call('ttl', KEYS[1]) < 0 then redis.call('expire', KEYS[1], ARGV[3]) end
return {1, used}`;

/** Gives n back, never below 0 (a refund after the day's key expired creates nothing). */
const REFUND = `local used = tonumber(redis.call('get', KEYS[1]) or '0')
if used <= 0 then return 0 end
local left = math.max(0, used - tonumber(ARGV[1]))
redis.call('set', KEYS[1], left, 'KEEPTTL')
return left`;

export function redisBudget(redis: Redis, prefix: string): BudgetStore {
  const key = (keyId: string, day: string) => `${prefix}:budget:${keyId}:${day}`;
  return {
    async used(keyId, day) {
      return Number((await redis.get(key(keyId, day))) ?? 0);
    },
    async spend(keyId, day, n, limit, ttlS) {
      const [ok, used] = (await redis.eval(SPEND, 1, key(keyId, day), n, limit, Math.max(1, Math.ceil(ttlS)))) as [number, number];
      return { ok: ok === 1, used: Number(used) };
    },
    async refund(keyId, day, n) {
      await redis.eval(REFUND, 1, key(keyId, day), n);
    },
  };
}

/** The UTC day of `now` (YYYY-MM-DD) and the seconds until the next one starts. */
export function dayOf(now: Date): { day: string; resetS: number } {
  const day = now.toISOString().slice(0, 10);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day, resetS: Math.max(1, Math.ceil((next - now.getTime()) / 1000)) };
}
