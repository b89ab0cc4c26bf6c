// Politeness at fleet scale: at most FLEET_PER_ADDRESS_CONCURRENCY batch scans at once against
// targets that resolve to one IP address (a shared host, a CDN edge), across every instance.
// With Redis, a redis-semaphore Semaphore per address (its slots expire if an instance dies,
// refreshed while held); without, a count per address in this process (one instance).
//
// A slot is taken at once or not at all: run() never waits. A job that finds its address busy
// goes back to the queue (RetryLater) for about as long as the scans ahead of it will take, so
// waiting never spends its timeout or an attempt (src/jobs/port.ts), holds no worker slot that
// items of other addresses could use, and does not poll every second: the delay grows with
// the jobs already told to come back for that address and with how long a slot is held.
import type { Redis } from 'ioredis';
import { Semaphore } from 'redis-semaphore';

export interface AddressLimiter {
  /** Runs fn holding one of the address's slots, taken at once; throws AddressBusy (saying when to come back) when none is free. */
  run<T>(address: string, fn: () => Promise<T>): Promise<T>;
}

export class AddressBusy extends Error {
  override name = 'AddressBusy';
  /** About when a slot should be free for this job. */
  readonly retryInMs: number;
  constructor(message: string, retryInMs: number) {
    super(message);
    this.retryInMs = retryInMs;
  }
}

const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 60_000;

/**
 * When to come back: the jobs already sent back for this address go first, `perAddress` at a
 * time, each holding a slot for about the mean hold time; with ±25 % jitter so a crowd sent
 * back together does not return together.
 */
export class Backlog {
  readonly #perAddress: number;
  /** Mean time a slot is held (exponentially weighted), from the scans seen here. */
  #holdMs = 2_000;
  /** Due times of the jobs sent back, by address. */
  readonly #due = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(perAddress: number, now: () => number = Date.now) {
    this.#perAddress = perAddress;
    this.#now = now;
  }

  held(ms: number): void {
    this.#holdMs = 0.8 * this.#holdMs + 0.2 * ms;
  }

  /** Records one more job sent back for `address` and says when it should come back. */
  sendBack(address: string): number {
    const now = this.#now();
    const due = (this.#due.get(address) ?? []).filter((t) => t > now);
    const rounds = Math.ceil((due.length + 1) / this.#perAddress);
    const wait = Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, rounds * this.#holdMs)) * (0.75 + Math.random() * 0.5);
    due.push(now + wait);
    this.#due.set(address, due);
    // Addresses nobody waits for any more go.
    for (const [a, list] of this.#due) if (list.every((t) => t <= now)) this.#due.delete(a);
    return Math.round(wait);
  }
}

export function localAddressLimiter(perAddress: number): AddressLimiter {
  const active = new Map<string, number>();
  const backlog = new Backlog(perAddress);
  return {
    async run(address, fn) {
      const n = active.get(address) ?? 0;
      if (n >= perAddress) throw new AddressBusy(`no free slot for ${address}`, backlog.sendBack(address));
      active.set(address, n + 1);
      const started = Date.now();
      try {
        return await fn();
      } finally {
        backlog.held(Date.now() - started);
        const left = (active.get(address) ?? 1) - 1;
        if (left <= 0) active.delete(address);
        else active.set(address, left);
      }
    },
  };
}

export function redisAddressLimiter(redis: Redis, perAddress: number, opts: { prefix?: string; lockTimeoutMs?: number } = {}): AddressLimiter {
  const lockTimeout = opts.lockTimeoutMs ?? 15_000;
  const backlog = new Backlog(perAddress);
  return {
    async run(address, fn) {
      const semaphore = new Semaphore(redis, `${opts.prefix ?? 'ar'}:address:${address}`, perAddress, {
        lockTimeout, refreshInterval: lockTimeout / 3,
        // One try, no wait: redis-semaphore's tryAcquire otherwise retries until acquireTimeout.
        acquireAttemptsLimit: 1, retryInterval: 0,
        // A slot lost (Redis gone for longer than the lock) only loosens politeness for one scan.
        onLockLost: () => undefined,
      });
      let taken: boolean;
      try {
        taken = await semaphore.tryAcquire();
      } catch (err) {
        throw new AddressBusy(`no slot for ${address}: ${(err as Error).message}`, backlog.sendBack(address));
      }
      if (!taken) throw new AddressBusy(`no free slot for ${address}`, backlog.sendBack(address));
      const started = Date.now();
      try {
        return await fn();
      } finally {
        backlog.held(Date.now() - started);
        await semaphore.release().catch(() => undefined);
      }
    },
  };
}
