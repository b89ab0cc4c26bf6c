// Politeness at fleet scale: at most FLEET_PER_ADDRESS_CONCURRENCY batch scans at once against
// targets that resolve to one IP address (a shared host, a CDN edge), across every instance.
// With Redis, a redis-semaphore Semaphore per address (its slots expire if an instance dies,
// refreshed while held); without, a p-limit per address in this process (one instance).
import type { Redis } from 'ioredis';
import pLimit, { type LimitFunction } from 'p-limit';
import { Semaphore } from 'redis-semaphore';

export interface AddressLimiter {
  /** Runs fn holding one of the address's slots; throws AddressBusy when none frees in time. */
  run<T>(address: string, fn: () => Promise<T>): Promise<T>;
}

export class AddressBusy extends Error {
  override name = 'AddressBusy';
}

export function localAddressLimiter(perAddress: number): AddressLimiter {
  const limits = new Map<string, LimitFunction>();
  return {
    async run(address, fn) {
      let limit = limits.get(address);
      if (!limit) {
        limit = pLimit(perAddress);
        limits.set(address, limit);
      }
      try {
        return await limit(fn);
      } finally {
        if (limit.activeCount === 0 && limit.pendingCount === 0) limits.delete(address);
      }
    },
  };
}

export function redisAddressLimiter(redis: Redis, perAddress: number, opts: { prefix?: string; acquireTimeoutMs?: number; lockTimeoutMs?: number } = {}): AddressLimiter {
  const lockTimeout = opts.lockTimeoutMs ?? 15_000;
  return {
    async run(address, fn) {
      const semaphore = new Semaphore(redis, `${opts.prefix ?? 'ar'}:address:${address}`, perAddress, {
        lockTimeout, refreshInterval: lockTimeout / 3, acquireTimeout: opts.acquireTimeoutMs ?? 3000, retryInterval: 100,
        // A slot lost (Redis gone for longer than the lock) only loosens politeness for one scan.
        onLockLost: () => undefined,
      });
      try {
        await semaphore.acquire();
      } catch (err) {
        throw new AddressBusy(`no free slot for ${address}: ${(err as Error).message}`);
      }
      try {
        return await fn();
      } finally {
        await semaphore.release().catch(() => undefined);
      }
    },
  };
}
