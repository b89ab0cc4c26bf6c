// The job engine's own CPU per item, without a scan: `items` jobs enqueued at once (as a
// batch's are) and run by a processor that does nothing, at the service's default worker
// concurrency, in this process; CPU from process.cpuUsage over enqueue to the last completion.
// The embedded engine (its queue table on a SQLite file) always; BullMQ when a Redis URL is given
// (the Node side only: Redis's own CPU is another process). Asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { JobEngine } from '../../src/jobs/port.ts';

export interface EngineCpu { engine: 'embedded' | 'distributed'; items: number; cpuMsPerItem: number; wallMs: number }

async function measure(engine: JobEngine, items: number): Promise<EngineCpu> {
  const queue = `bench-${Date.now()}`;
  let finished = 0;
  let allDone!: () => void;
  const done = new Promise<void>((r) => { allDone = r; });
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  engine.process(queue, async () => {
    if (++finished === items) allDone();
  }, { concurrency: 8 * os.availableParallelism(), timeoutMs: 60_000 });
  const jobs = Array.from({ length: items }, (_, i) => ({ data: { b: 'bench', s: i }, opts: { jobId: `bench.${i}`, priority: 500, attempts: 3 } }));
  for (let i = 0; i < jobs.length; i += 1000) await engine.enqueueMany(queue, jobs.slice(i, i + 1000));
  await done;
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  return { engine: engine.kind, items, cpuMsPerItem: (cpu.user + cpu.system) / 1000 / items, wallMs };
}

export async function jobEngineCpu(items: number, redisUrl?: string): Promise<EngineCpu[]> {
  const log = pino({ level: 'silent' });
  const out: EngineCpu[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-jobs-'));
  try {
    const { EmbeddedJobEngine } = await import('../../src/jobs/embedded.ts');
    const embedded = new EmbeddedJobEngine({ file: path.join(dir, 'jobs.sqlite'), log });
    try {
      out.push(await measure(embedded, items));
    } finally {
      await embedded.close();
    }
    if (redisUrl) {
      const { DistributedJobEngine } = await import('../../src/jobs/distributed.ts');
      const distributed = new DistributedJobEngine({ redisUrl, keyPrefix: `bench-jobs-${process.pid}-${Date.now()}:`, log });
      try {
        out.push(await measure(distributed, items));
      } finally {
        await distributed.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
