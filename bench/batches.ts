// Batches on the job engine (issue 30), side by side in one run against the real service
// (src/main.js) scanning the test world (its own process, every response delayed
// WORLD_LATENCY_MS). Asserts nothing; every figure is reported against its target:
//   scans/s/core of a batch against the 100-at-once burst      (1000 / service CPU ms per scan)
//   the job engine's own CPU per item                          (≤ 5 % of a scan's CPU)
//   resident size across a long batch                          (last 1,000 within 10 % of first 1,000)
//   p95 of people's POST /scan during a batch against idle     (≤ 2 ×)
//   two instances on PostgreSQL and Redis against one          (reported)
// and from them the instance-hours a million domains take.
//   node bench/batches.ts                                      the run of record (1,000 / 5,000 items)
//   node bench/batches.ts --items 20 --rss-items 40 --burst 10 --probes 3 --no-write    a smoke run
// PostgreSQL and Redis for the two-instance row: BENCH_DATABASE_URL and BENCH_REDIS_URL
// (else TEST_DATABASE_URL / TEST_REDIS_URL); without them that row says so, loudly.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import knex from 'knex';
import { cpuPerScanMs, measureBurst } from './concurrent-scans.ts';
import { batchServiceEnv, partnerKey, personScans, rssBetween, runBatch, type BatchRun } from './lib/batch-run.ts';
import { spawnService, startWorld, type Child } from './lib/child.ts';
import { jobEngineCpu } from './lib/job-engine-cpu.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, percentile } from './lib/stats.ts';

const LATENCY_MS = Number(process.env.WORLD_LATENCY_MS ?? 50);

export interface BatchBenchOptions { items: number; rssItems: number; burst: number; probes: number; databaseUrl?: string; redisUrl?: string }

export interface BatchBench {
  markdown: string;
  batchScansPerCoreSecond: number; burstScansPerCoreSecond: number;
  engineShareOfScan: number; rssRatio: number; p95Ratio: number; twoVsOne: number | null; instanceHoursPerMillion: number;
}

/** A fresh world and service set (SQLite file, or PostgreSQL database and Redis prefix), torn down after `use`. */
async function withServices<T>(count: number, shared: { databaseUrl: string; redisUrl: string } | null, use: (s: Child[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-batches-'));
  const world = await startWorld(LATENCY_MS);
  let dbName: string | undefined;
  const admin = shared ? knex({ client: 'pg', connection: shared.databaseUrl, pool: { min: 0, max: 1 } }) : undefined;
  const services: Child[] = [];
  try {
    let env: Record<string, string>;
    if (shared) {
      dbName = `bench_batches_${randomBytes(4).toString('hex')}`;
      await admin!.raw(`create database ${dbName}`);
      const u = new URL(shared.databaseUrl);
      u.pathname = `/${dbName}`;
      env = { DATABASE_URL: u.toString(), REDIS_URL: shared.redisUrl, REDIS_KEY_PREFIX: `${dbName}:` };
    } else env = { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}` };
    for (let i = 0; i < count; i++) services.push(await spawnService(batchServiceEnv(world.env, { ...env, MAIL_DIR: path.join(dir, `mail-${i}`) }), { timeoutMs: 120_000 }));
    return await use(services);
  } finally {
    for (const s of services) await s.stop();
    await world.stop();
    if (dbName) await admin!.raw(`drop database if exists ${dbName} with (force)`);
    await admin?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

const perCoreSecond = (run: BatchRun) => run.items / run.cpu.reduce((a, b) => a + b, 0);

export async function benchBatches(o: BatchBenchOptions): Promise<BatchBench> {
  const started = nowIso();
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' / ');
  const cores = os.availableParallelism();
  const shared = o.databaseUrl && o.redisUrl ? { databaseUrl: o.databaseUrl, redisUrl: o.redisUrl } : null;

  console.log(`burst of ${o.burst} at once`);
  const burst = await measureBurst(o.burst, { settle: true });
  const burstCpuMs = cpuPerScanMs(burst);

  console.log(`a ${o.items}-item batch, then people's scans idle and during another`);
  const { batch, idle, during } = await withServices(1, null, async ([svc]) => {
    const key = await partnerKey(svc!.url, o.items * 3 + o.rssItems + 100);
    await personScans(svc!.url, 90_000, 1); // warm-up: JIT and connections, not counted
    const batch = await runBatch([svc!], key, { firstSite: 100_000, items: o.items });
    const idle = await personScans(svc!.url, 91_000, o.probes);
    const withPeople = await runBatch([svc!], key, { firstSite: 110_000, items: o.items, personScans: o.probes, personFirst: 92_000 });
    return { batch, idle, during: withPeople.duringMs };
  });

  console.log(`a ${o.rssItems}-item batch for resident size`);
  const long = await withServices(1, null, async ([svc]) => runBatch([svc!], await partnerKey(svc!.url, o.rssItems + 10), { firstSite: 200_000, items: o.rssItems }));
  const window = Math.min(1000, Math.floor(o.rssItems / 5));
  const rssFirst = rssBetween(long, 0, window);
  const rssLast = rssBetween(long, o.rssItems - window, o.rssItems);

  console.log('the job engine alone');
  const engines = await jobEngineCpu(o.items, o.redisUrl);
  const embedded = engines.find((e) => e.engine === 'embedded')!;

  let one: BatchRun | undefined;
  let two: BatchRun | undefined;
  if (shared) {
    console.log('one instance, then two, on PostgreSQL and Redis');
    one = await withServices(1, shared, async (s) => runBatch(s, await partnerKey(s[0]!.url, o.items + 10), { firstSite: 300_000, items: o.items }));
    two = await withServices(2, shared, async (s) => runBatch(s, await partnerKey(s[0]!.url, o.items + 10), { firstSite: 310_000, items: o.items }));
  }

  const loadAtEnd = os.loadavg().map((x) => x.toFixed(2)).join(' / ');
  const batchCpuMs = (1000 * batch.cpu[0]!) / batch.items;
  const batchRate = perCoreSecond(batch);
  const burstRate = 1000 / burstCpuMs;
  const engineShare = embedded.cpuMsPerItem / burstCpuMs;
  const p95Idle = percentile(idle, 95);
  const p95During = percentile(during, 95);
  const wallRate = (r: BatchRun) => r.items / (r.wallMs / 1000);
  const twoVsOne = one && two ? wallRate(two) / wallRate(one) : null;
  // One instance of this machine's size, running batches back to back at the measured pace.
  const instanceHours = 1e6 / wallRate(batch) / 3600;
  const coreHours = 1e6 / batchRate / 3600;

  const markdown = [
    '## Batches on the job engine (`npm run bench`, bench/batches.ts)',
    '',
    `Measured ${started} on ${describeMachine()}; load average (1 / 5 / 15 min) ${load} at the start, ${loadAtEnd} at the end (the world, the bench client and any other work share these CPUs). World latency ${LATENCY_MS} ms per response; batch items distinct copies of the benchmark site; per-address bound raised to 100 (every world site shares one address), \`WORKER_CONCURRENCY\` its default (${8 * cores}).`,
    `Sizes: batch ${o.items}, long batch ${o.rssItems}, burst ${o.burst}, ${o.probes} person scans each idle and during.`,
    '',
    '| figure | target | measured |',
    '|---|---|---|',
    `| scans per second one core sustains, ${o.items}-item batch (items / service CPU s) | (reported) | ${fmt(batchRate, 1)} (${fmt(batchCpuMs, 1)} ms CPU per item; ${batch.done} done, ${batch.failed} failed; wall ${fmt(batch.wallMs / 1000, 1)} s) |`,
    `| the same, ${o.burst} POST /scan at once (1000 / CPU ms per scan) | (reported) | ${fmt(burstRate, 1)} (${fmt(burstCpuMs, 1)} ms CPU per scan) |`,
    `| batch machinery per item: batch CPU per item − burst CPU per scan (engine, item rows, progress polls) | (reported) | ${fmt(batchCpuMs - burstCpuMs, 1)} ms (${fmt((100 * (batchCpuMs - burstCpuMs)) / burstCpuMs, 1)} % of a scan) |`,
    ...engines.map((e) => `| job engine's own CPU per item, ${e.engine === 'embedded' ? 'embedded (queue table)' : 'distributed (BullMQ; Node side)'}, ${e.items} no-op jobs | ≤ 5 % of a scan (${fmt(burstCpuMs * 0.05, 2)} ms) | ${fmt(e.cpuMsPerItem, 3)} ms = ${fmt((100 * e.cpuMsPerItem) / burstCpuMs, 2)} % of a scan |`),
    `| resident size, ${o.rssItems}-item batch: median while the last ${window} finished / first ${window} | ≤ 1.10 | ${fmt(rssLast / rssFirst, 3)} (${fmt(rssFirst, 1)} → ${fmt(rssLast, 1)} MiB; ${long.done} done, ${long.failed} failed) |`,
    `| p95 of a person's POST /scan during a ${o.items}-item batch / idle | ≤ 2 × | ${fmt(p95During / p95Idle, 2)} × (${fmt(p95During)} ms against ${fmt(p95Idle)} ms) |`,
    twoVsOne === null
      ? '| two instances on PostgreSQL and Redis / one (items per wall second) | (reported) | **not measured**: set BENCH_DATABASE_URL and BENCH_REDIS_URL |'
      : `| two instances on PostgreSQL and Redis / one (items per wall second, ${o.items} items) | (reported) | ${fmt(twoVsOne, 2)} × (${fmt(wallRate(one!), 1)} → ${fmt(wallRate(two!), 1)} items/s; CPU per item ${fmt((1000 * one!.cpu[0]!) / one!.items, 1)} ms on one, ${fmt((1000 * two!.cpu.reduce((a, b) => a + b, 0)) / two!.items, 1)} ms over two) |`,
    '',
    `**A million domains**: at this run's batch pace one instance on this ${cores}-CPU machine, with the world beside it, takes ${fmt(instanceHours, 1)} instance-hours; by CPU alone (the scanned sites elsewhere, as in production) ${fmt(coreHours, 1)} core-hours, i.e. ${fmt(coreHours / cores, 1)} hours of a ${cores}-core instance.`,
  ].join('\n');
  return { markdown, batchScansPerCoreSecond: batchRate, burstScansPerCoreSecond: burstRate, engineShareOfScan: engineShare, rssRatio: rssLast / rssFirst, p95Ratio: p95During / p95Idle, twoVsOne, instanceHoursPerMillion: coreHours / cores };
}

export function batchBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BatchBenchOptions & { write: boolean } {
  const { values: v } = parseArgs({ args: [...argv], options: { items: { type: 'string' }, 'rss-items': { type: 'string' }, burst: { type: 'string' }, probes: { type: 'string' }, 'no-write': { type: 'boolean' } } });
  const int = (s: string | undefined, d: number) => (s === undefined ? d : Math.max(1, Number.parseInt(s, 10) || d));
  const databaseUrl = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL;
  const redisUrl = env.BENCH_REDIS_URL ?? env.TEST_REDIS_URL;
  return {
    items: int(v.items ?? env.BENCH_BATCH_ITEMS, 1000), rssItems: int(v['rss-items'] ?? env.BENCH_BATCH_RSS_ITEMS, 5000),
    burst: int(v.burst, 100), probes: int(v.probes, 20), write: !v['no-write'],
    ...(databaseUrl ? { databaseUrl } : {}), ...(redisUrl ? { redisUrl } : {}),
  };
}

if (import.meta.main) {
  const o = batchBenchOptions(process.argv.slice(2), process.env);
  if (!o.databaseUrl || !o.redisUrl) console.warn('NOT MEASURED: two instances on PostgreSQL and Redis (set BENCH_DATABASE_URL and BENCH_REDIS_URL)');
  const { markdown } = await benchBatches(o);
  if (o.write) writeSection('batches', markdown);
  console.log(markdown);
  process.exit(0);
}
