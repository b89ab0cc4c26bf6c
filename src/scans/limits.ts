// Rate limits shared by POST /scan and POST /scan-mcp (and the MCP scan_site tool); the per-IP
// budget also pays for an unkeyed POST /watches (consumeIp).
//
// Per target domain: a burst, then one per refill period. rate-limiter-flexible has no token
// bucket, so the burst is two limiters: a steady one (1 point per refill period) and a burst
// reserve of (burst - 1) points that refills over burst × period. A burst of 3 is allowed at
// once, then one a minute; the reserve comes back after a few quiet minutes ("about", as the
// spec says). Per client IP: a plain window.
//
// With REDIS_URL the counters live in Redis, so several instances share them; if Redis
// fails, an in-memory insurance limiter keeps limiting per instance rather than failing open
// or closed.
import type { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateSetting } from '../config.ts';
import { errors } from '../errors.ts';

export interface RateState {
  /** Burst size of the per-domain limit (RateLimit-Limit). */
  limit: number;
  /** Scans left for the domain right now (RateLimit-Remaining). */
  remaining: number;
}

export interface ScanLimits {
  /** Spends one scan of the domain's and the IP's budget, or throws a 429 AppError. */
  consume(domain: string, clientIp: string): Promise<RateState>;
  /** Spends one scan of the domain's budget only (batch items: their key's budget replaces the per-IP one), or throws a 429. */
  consumeDomain(domain: string): Promise<RateState>;
  /** The domain's budget without spending any (for coalesced serves). */
  peek(domain: string): Promise<RateState>;
  /**
   * Spends one point of the IP's budget only (the same bucket as a scan's), or throws a 429:
   * an unkeyed createWatch, which makes us send a confirmation mail to an address a stranger typed.
   */
  consumeIp(clientIp: string): Promise<void>;
}

export interface LimitsOptions {
  perDomain: RateSetting;
  perIp: RateSetting;
  redis?: Redis;
  /** Key prefix; tests give each run its own so shared Redis state never leaks between them. */
  prefix?: string;
}

function limiter(points: number, duration: number, keyPrefix: string, redis: Redis | undefined): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  if (!redis) return memory;
  return new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix, insuranceLimiter: memory });
}

/**
 * The per-IP key: an IPv4 address as is (IPv4-mapped IPv6 unwrapped), an IPv6 address by its
 * /64, because one subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function ipKey(clientIp: string): string {
  if (!ipaddr.isValid(clientIp)) return clientIp;
  let ip = ipaddr.parse(clientIp);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

function rejected(e: unknown): e is RateLimiterRes {
  return e instanceof RateLimiterRes;
}

export function createScanLimits(opts: LimitsOptions): ScanLimits {
  const prefix = opts.prefix ?? 'ar:rl';
  const burst = opts.perDomain.points;
  const period = opts.perDomain.durationS;
  const steady = limiter(1, period, `${prefix}:dom`, opts.redis);
  const reserve = burst > 1 ? limiter(burst - 1, (burst - 1) * period * 2, `${prefix}:domb`, opts.redis) : undefined;
  const perIp = limiter(opts.perIp.points, opts.perIp.durationS, `${prefix}:ip`, opts.redis);

  async function remainingOf(domain: string): Promise<number> {
    const [s, r] = await Promise.all([steady.get(domain), reserve?.get(domain)]);
    const steadyLeft = Math.max(0, 1 - (s?.consumedPoints ?? 0));
    const reserveLeft = reserve ? Math.max(0, (burst - 1) - (r?.consumedPoints ?? 0)) : 0;
    return steadyLeft + reserveLeft;
  }

  async function consumeDomain(domain: string): Promise<void> {
    try {
      await steady.consume(domain);
      return;
    } catch (e) {
      if (!rejected(e)) throw e;
      if (!reserve) throw errors.rateLimited(e.msBeforeNext / 1000, `of ${domain}`);
      try {
        await reserve.consume(domain);
      } catch (r) {
        if (!rejected(r)) throw r;
        // Whichever refills first lets the next scan through.
        throw errors.rateLimited(Math.min(e.msBeforeNext, r.msBeforeNext) / 1000, `of ${domain}`);
      }
    }
  }

  return {
    async consume(domain, rawIp) {
      const clientIp = ipKey(rawIp);
      try {
        await perIp.consume(clientIp);
      } catch (e) {
        if (!rejected(e)) throw e;
        throw errors.rateLimited(e.msBeforeNext / 1000, 'from your address');
      }
      try {
        await consumeDomain(domain);
      } catch (e) {
        // The domain refused: give the IP its point back, the caller never got a scan.
        await perIp.reward(clientIp, 1).catch(() => undefined);
        throw e;
      }
      return { limit: burst, remaining: await remainingOf(domain) };
    },
    async consumeDomain(domain) {
      await consumeDomain(domain);
      return { limit: burst, remaining: await remainingOf(domain) };
    },
    async peek(domain) {
      return { limit: burst, remaining: await remainingOf(domain) };
    },
    async consumeIp(rawIp) {
      try {
        await perIp.consume(ipKey(rawIp));
      } catch (e) {
        if (!rejected(e)) throw e;
        const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
        throw errors.tooMany(seconds, `Too many requests from your address: its scans and new watches share one budget. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          'A partner key (Authorization: Bearer ark_…) has a daily budget of its own.');
      }
    },
  };
}
