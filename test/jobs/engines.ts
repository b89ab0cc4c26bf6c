// The job engines under test: the embedded one always, the distributed one when Redis is
// there (skipped loudly otherwise). Each gets a fresh queue (SQLite in memory, or a Redis
// key prefix of its own that is deleted afterwards).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { JobEngineUnavailable, type JobEngine } from '../../src/jobs/port.ts';

export const REDIS = process.env.TEST_REDIS_URL;
export const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface EngineKind {
  name: 'embedded' | 'distributed';
  skip: string | false;
  /** A new engine; engines made with the same `shared` name share their queue. */
  make(shared?: string): JobEngine;
  cleanup(): Promise<void>;
}

export function engineKinds(): EngineKind[] {
  const prefixes = new Set<string>();
  const run = randomBytes(4).toString('hex');
  return [
    { name: 'embedded', skip: false, make: () => new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20, leaseMs: 1000 }), cleanup: async () => undefined },
    {
      name: 'distributed',
      skip: REDIS ? false : 'TEST_REDIS_URL is not set',
      make(shared) {
        const keyPrefix = `tjobs-${run}-${shared ?? randomBytes(4).toString('hex')}:`;
        prefixes.add(keyPrefix);
        return new DistributedJobEngine({ redisUrl: REDIS!, keyPrefix, log, leaseMs: 2000 });
      },
      async cleanup() {
        const redis = new Redis(REDIS!);
        for (const p of prefixes) {
          const keys = await redis.keys(`${p}*`);
          if (keys.length) await redis.del(...keys);
        }
        redis.disconnect();
      },
    },
  ];
}

/** Waits for a condition, polling; fails with `what` after timeoutMs. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const stop = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A job engine that never runs anything (tests that play the runs themselves, or need none). */
export const idleEngine: JobEngine = {
  kind: 'embedded', enqueue: async () => undefined, enqueueMany: async () => undefined, cancel: async () => undefined,
  process: () => undefined, health: () => ({ state: 'ok' }), counts: async () => [], close: async () => undefined,
};

/** A job engine that is down: every enqueue throws JobEngineUnavailable (the 503 paths: nothing stored, nothing spent). */
export const downEngine: JobEngine = {
  kind: 'distributed',
  enqueue: async () => { throw new JobEngineUnavailable('down'); },
  enqueueMany: async () => { throw new JobEngineUnavailable('down'); },
  cancel: async () => undefined,
  process: () => undefined,
  health: () => ({ state: 'degraded', reason: 'down' }),
  counts: async () => [],
  close: async () => undefined,
};
