// Picks the job engine for a configuration: BullMQ when REDIS_URL is set (every instance
// shares its queues), else the embedded engine on a SQLite file of this instance's own:
//   DATABASE_URL=sqlite:<dir>/<name>.sqlite  ->  <dir>/<name>.jobs.sqlite (beside the database)
//   DATABASE_URL=sqlite::memory:             ->  in memory (tests)
//   DATABASE_URL=postgres://… without Redis  ->  ./data/jobs-<hash of the database URL>.sqlite
// The last is one instance's queue beside a shared database: batches it accepts run only on
// it (and resume when it restarts); several instances on one PostgreSQL need REDIS_URL to
// share the work, and the service says so in its log at start.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { EngineHealth, EnqueueOptions, JobEngine, Processor, ProcessOptions, QueueCounts } from './port.ts';

export type { EngineHealth, EnqueueOptions, Job, JobEngine, ProcessOptions, Processor, QueueCounts } from './port.ts';
export { JobEngineUnavailable, RetryLater } from './port.ts';

/** Where the embedded engine keeps its queue for a DATABASE_URL. */
export function embeddedFileFor(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file === ':memory:') return ':memory:';
    const ext = path.extname(file);
    return ext ? `${file.slice(0, -ext.length)}.jobs${ext}` : `${file}.jobs.sqlite`;
  }
  const u = new URL(databaseUrl);
  u.password = '';
  return path.join('data', `jobs-${createHash('sha256').update(u.toString()).digest('hex').slice(0, 12)}.sqlite`);
}

/**
 * The engine for this configuration. Its adapter (BullMQ, or better-sqlite3's queue) loads on the
 * first call, so a start never loads the one it does not use, nor either before something
 * needs jobs; calls made meanwhile wait for it.
 */
export function createJobEngine(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix' | 'databaseUrl' | 'jobLeaseMs'>, log: Logger): JobEngine {
  const load = async (): Promise<JobEngine> => {
    if (config.redisUrl) {
      const { DistributedJobEngine } = await import('./distributed.ts');
      return new DistributedJobEngine({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, log, leaseMs: config.jobLeaseMs });
    }
    const file = embeddedFileFor(config.databaseUrl);
    if (!config.databaseUrl.startsWith('sqlite:')) {
      log.warn({ file }, 'jobs run on this instance only (no REDIS_URL): set REDIS_URL so instances sharing this database share its batches');
    }
    const { EmbeddedJobEngine } = await import('./embedded.ts');
    return new EmbeddedJobEngine({ file, log, leaseMs: config.jobLeaseMs });
  };
  let loading: Promise<JobEngine> | undefined;
  let loaded: JobEngine | undefined;
  let failed: string | undefined;
  const started = () => {
    if (!loading) {
      loading = load();
      loading.then((e) => { loaded = e; }, (err: unknown) => {
        failed = `the job engine could not start: ${(err as Error).message.slice(0, 200)}`;
        log.error({ err }, 'job engine could not start');
      });
    }
    return loading;
  };
  return {
    kind: config.redisUrl ? 'distributed' : 'embedded',
    enqueue: async <T>(queue: string, data: T, opts: EnqueueOptions) => (await started()).enqueue(queue, data, opts),
    enqueueMany: async <T>(queue: string, jobs: ReadonlyArray<{ data: T; opts: EnqueueOptions }>) => (await started()).enqueueMany(queue, jobs),
    cancel: async (queue: string, jobId: string) => (await started()).cancel(queue, jobId),
    process<T>(queue: string, processor: Processor<T>, opts: ProcessOptions<T>) {
      started().then((e) => e.process(queue, processor, opts)).catch((err: unknown) => log.error({ err, queue }, 'jobs of this queue are not processed'));
    },
    // Not loading the engine for a scrape: before anything used it, nothing is queued here.
    counts: async (queues: readonly string[]): Promise<QueueCounts[]> => (loaded ?? (loading ? await loading : undefined))?.counts(queues) ?? queues.map((queue) => ({ queue, waiting: 0, active: 0, delayed: 0 })),
    health: (): EngineHealth => loaded?.health() ?? (failed ? { state: 'degraded', reason: failed } : { state: 'ok' }),
    close: async () => {
      const e = await loading?.catch(() => undefined);
      await e?.close();
    },
  };
}
