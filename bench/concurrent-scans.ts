// 100 concurrent POST /scan of distinct domains against the real service (src/main.ts)
// scanning the test world (world in its own child process, every response delayed
// WORLD_LATENCY_MS): throughput, latency percentiles and the service's peak memory
// (VmHWM of the child). Asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { root, spawnService } from './lib/child.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median, percentile } from './lib/stats.ts';

const SCANS = Number(process.env.BENCH_SCANS ?? 100);
const LATENCY_MS = Number(process.env.WORLD_LATENCY_MS ?? 50);

export async function startWorld(latencyMs: number): Promise<{ env: Record<string, string>; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['test/world/main.ts', '--latency', String(latencyMs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('networkA leaves from')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the world exited with ${code}`)));
  });
  const env: Record<string, string> = {};
  for (const m of out.matchAll(/^export (\w+)='([^']*)'$/gm)) env[m[1]!] = m[2]!;
  return { env, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export interface Burst {
  scans: number;
  ok: number;
  headlines: string;
  wallMs: number;
  p50: number;
  p95: number;
  maxMs: number;
  /** CPU seconds (user + system) during the burst. */
  cpu: { service: number; world: number; client: number };
  /** Service RSS: idle after the warm-up scan, and its high-water mark (VmHWM) after the burst. */
  idleMiB: number;
  peakMiB: number;
  /** All CPU of the burst spread over the cores: no schedule can finish sooner. */
  floorMs: number;
}

/** `count` POST /scan at once against a fresh service process (so VmHWM is this burst's alone). */
export async function measureBurst(count: number, nodeArgs: string[] = []): Promise<Burst> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scans-'));
  const world = await startWorld(LATENCY_MS);
  const service = await spawnService({
    DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, NODE_ENV: 'production', MAIL_DIR: path.join(dir, 'mail'),
    NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!,
    NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!, RATE_LIMIT_PER_IP: '100000/1', RATE_LIMIT_PER_DOMAIN: '100000/1',
  }, { nodeArgs });
  const client = new Agent({ connections: count + 10, headersTimeout: 300_000, bodyTimeout: 300_000 });
  const lead = { name: 'Bench Mark', email: 'bench@world-fixtures.com' };
  const scan = async (domain: string) => {
    const t = performance.now();
    const res = await request(`${service.url}/scan`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain, lead }), dispatcher: client,
    });
    const body = (await res.body.json()) as { headline?: string };
    return { ms: performance.now() - t, status: res.statusCode, headline: body.headline };
  };
  try {
    await scan('open-basic--warmup.world-fixtures.com'); // JIT and connection set-up, not counted
    const idleMiB = peakRssMiB(service.process.pid!);
    const cpu0 = { service: cpuSeconds(service.process.pid!), world: cpuSeconds(world.pid), bench: process.cpuUsage() };
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: count }, (_, i) => scan(`open-basic--${i}.world-fixtures.com`)));
    const wallMs = performance.now() - started;
    const bench = process.cpuUsage(cpu0.bench);
    const cpu = {
      service: cpuSeconds(service.process.pid!) - cpu0.service,
      world: cpuSeconds(world.pid) - cpu0.world,
      client: (bench.user + bench.system) / 1e6,
    };
    const ms = results.map((r) => r.ms);
    return {
      scans: count, ok: results.filter((r) => r.status === 200).length,
      headlines: [...new Set(results.map((r) => r.headline ?? `HTTP ${r.status}`))].join(', '),
      wallMs, p50: median(ms), p95: percentile(ms, 95), maxMs: Math.max(...ms), cpu,
      idleMiB, peakMiB: peakRssMiB(service.process.pid!),
      floorMs: (1000 * (cpu.service + cpu.world + cpu.client)) / os.availableParallelism(),
    };
  } finally {
    await client.close();
    await service.stop();
    world.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Service CPU per scan, in ms. */
export const cpuPerScanMs = (b: Burst): number => (1000 * b.cpu.service) / b.scans;
/** Peak RSS above the idle service, per scan in flight, in MiB. */
export const rssPerScanMiB = (b: Burst): number => (b.peakMiB - b.idleMiB) / b.scans;

export async function benchConcurrentScans(nodeArgs: string[] = []): Promise<{ markdown: string; burst: Burst }> {
  const b = await measureBurst(SCANS, nodeArgs);
  const markdown = [
    `## ${SCANS} concurrent scans through the service (\`npm run bench\`)`,
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}.`,
    `${SCANS} POST /scan at once, each of a distinct domain (copies of \`open-basic\`, 74 requests each), to \`src/main.ts\` (SQLite, NODE_ENV=production) scanning the test world (child process, ${LATENCY_MS} ms added to every response, both networks through their proxies). Targets: service CPU ≤ 40 ms per scan, peak RSS ≤ 1 MiB per scan in flight above the idle service, p95 ≤ 1.3 × the CPU floor.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| answered 200 | ${b.ok} of ${SCANS} (headlines: ${b.headlines}) |`,
    `| wall time for all ${SCANS} | ${fmt(b.wallMs)} ms |`,
    `| throughput | ${fmt((SCANS * 1000) / b.wallMs, 1)} scans/s |`,
    `| latency p50 / p95 / max | ${fmt(b.p50)} / ${fmt(b.p95)} / ${fmt(b.maxMs)} ms |`,
    `| service CPU per scan | ${fmt(cpuPerScanMs(b), 1)} ms |`,
    `| service peak RSS (VmHWM), idle before the burst, per scan in flight | ${fmt(b.peakMiB)} MiB, ${fmt(b.idleMiB)} MiB, ${fmt(rssPerScanMiB(b), 2)} MiB |`,
    `| CPU used during the burst: service / test world (sites and both proxies) / load generator | ${fmt(b.cpu.service, 1)} s / ${fmt(b.cpu.world, 1)} s / ${fmt(b.cpu.client, 1)} s |`,
    `| floor: all that CPU spread over ${os.availableParallelism()} cores; p95 against it | ${fmt(b.floorMs)} ms; ${fmt(b.p95 / b.floorMs, 2)} × |`,
  ].join('\n');
  return { markdown, burst: b };
}

/** How service CPU, memory and wall time grow with the number of scans at once. */
export async function benchScaling(counts: readonly number[] = (process.env.BENCH_SCALING ?? '1,10,100,300').split(',').map(Number)): Promise<{ markdown: string; bursts: Burst[] }> {
  const bursts: Burst[] = [];
  for (const n of counts) bursts.push(await measureBurst(n));
  const perCore = bursts.map((b) => 1000 / cpuPerScanMs(b));
  const markdown = [
    '## Scaling: 1 to 300 scans at once (`npm run bench`)',
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}. Each row is a fresh service process and world; the world adds ${LATENCY_MS} ms to every response.`,
    'Scans per second one core sustains = 1000 / service CPU per scan (the service alone; the sites it scans are elsewhere in production).',
    '',
    '| scans at once | wall time | p95 | p95 / CPU floor | service CPU | CPU per scan | idle → peak RSS | RSS per scan in flight | scans/s one core sustains |',
    '|---|---|---|---|---|---|---|---|---|',
    ...bursts.map((b, i) => `| ${b.scans} | ${fmt(b.wallMs)} ms | ${fmt(b.p95)} ms | ${fmt(b.p95 / b.floorMs, 2)} × | ${fmt(b.cpu.service, 2)} s | ${fmt(cpuPerScanMs(b), 1)} ms | ${fmt(b.idleMiB)} → ${fmt(b.peakMiB)} MiB | ${fmt(rssPerScanMiB(b), 2)} MiB | ${fmt(perCore[i]!, 0)} |`),
  ].join('\n');
  return { markdown, bursts };
}

if (import.meta.main) {
  const { markdown } = await benchConcurrentScans();
  writeSection('concurrent-scans', markdown);
  console.log(markdown);
}
