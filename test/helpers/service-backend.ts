// The storage and job engine a test's service runs on: the embedded default (SQLite and the
// engine's own queue table), or PostgreSQL (a fresh database) and BullMQ on Redis under a key
// prefix of its own, both removed by drop(). TEST_DATABASE_URL and TEST_REDIS_URL must be set
// for the distributed one (callers skip loudly without them).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createDatabase, dropDatabase } from './pg-database.ts';

export interface ServiceBackend { env: Record<string, string>; drop(): Promise<void> }

export async function serviceBackend(engine: 'embedded' | 'distributed', label: string): Promise<ServiceBackend> {
  if (engine === 'embedded') return { env: {}, drop: async () => undefined };
  const pg = process.env.TEST_DATABASE_URL!;
  const redisUrl = process.env.TEST_REDIS_URL!;
  const name = `${label}_${process.pid}_${randomUUID().slice(0, 8)}`;
  const url = await createDatabase(pg, name);
  const prefix = `test-${label}-${name}:`;
  return {
    env: { DATABASE_URL: url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix },
    async drop() {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await dropDatabase(pg, name);
    },
  };
}
