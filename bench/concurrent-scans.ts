// 100 concurrent POST /scan of distinct domains against the real service (src/main.ts)
// scanning the test world (world in its own child process, every response delayed
// WORLD_LATENCY_MS): throughput, latency percentiles and the service's peak memory
// (VmHWM of the child). Asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { root, spawnService, START_NODE_FLAGS } from './lib/child.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median, percentile } from './lib/stats.ts';

const SCANS = Number(process.env.BENCH_SCANS ?? 100);
/** Bursts per configuration: a single burst's memory figure moves by ±20 % with GC timing. */
const BURSTS = Number(process.env.BENCH_BURSTS ?? 3);
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

function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** The RSS high-water mark since the last resetPeakRss (or since start). */
const peakRssMiB = (pid: number): number => statusMiB(pid, 'VmHWM');

/**
 * The idle service's resident size now, and the high-water mark reset to it (Linux: 5 into
 * clear_refs), so the burst's peak is measured from idle. Start-up's own peak (compiling,
 * migrations) is above idle and would otherwise hide part of the burst.
 */
function idleRssMiB(pid: number): number {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return statusMiB(pid, 'VmRSS');
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

/**
 * `count` POST /scan at once against a fresh service process (so VmHWM is this burst's alone),
 * started with `npm start`'s flags unless `nodeArgs` says otherwise.
 */
export async function measureBurst(count: number, nodeArgs?: string[]): Promise<Burst> {
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
    const idleMiB = idleRssMiB(service.process.pid!);
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

/**
 * The same burst without the service: bare undici making one scan's 74 requests for each of
 * `count` sites at once, or the scan engine alone in-process, in a child process with the flags
 * `npm start` uses, against a fresh world. CPU per scan of that process, in ms.
 */
export async function measureClient(mode: 'bare' | 'engine', count: number): Promise<number> {
  const world = await startWorld(LATENCY_MS);
  try {
    const child = spawn(process.execPath, [...START_NODE_FLAGS, 'bench/lib/client-child.ts', mode, String(count)], { cwd: root, env: { ...process.env, ...world.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`bench/lib/client-child.ts ${mode} exited with ${code}`);
    return (JSON.parse(out.trim().split('\n').at(-1)!) as { cpuMsPerScan: number }).cpuMsPerScan;
  } finally {
    world.stop();
  }
}

/** Service CPU per scan, in ms. */
export const cpuPerScanMs = (b: Burst): number => (1000 * b.cpu.service) / b.scans;
/** Peak RSS above the idle service, per scan in flight, in MiB. */
export const rssPerScanMiB = (b: Burst): number => (b.peakMiB - b.idleMiB) / b.scans;

/** The burst whose figure is the median of `value` (the same burst's figures stay together). */
function medianBurst(bursts: readonly Burst[], value: (b: Burst) => number): Burst {
  return [...bursts].sort((a, b) => value(a) - value(b))[Math.floor((bursts.length - 1) / 2)]!;
}

export interface ConcurrentScans { markdown: string; burst: Burst; cpuPerScan: number; rssPerScan: number; p95Ratio: number; bareCpuPerScan: number; engineCpuPerScan: number }

/**
 * BURSTS bursts of SCANS scans with the service as `npm start` runs it, alternating with as many
 * under V8's own heap sizing (no flags), so the flags' effect on memory and CPU is measured side
 * by side. Each target figure is the median over the bursts.
 */
export async function benchConcurrentScans(): Promise<ConcurrentScans> {
  const started = nowIso();
  const load = os.loadavg()[0]!.toFixed(2);
  const prod: Burst[] = [];
  const defaults: Burst[] = [];
  const bare: number[] = [];
  const engine: number[] = [];
  for (let i = 0; i < BURSTS; i++) {
    prod.push(await measureBurst(SCANS));
    defaults.push(await measureBurst(SCANS, []));
    bare.push(await measureClient('bare', SCANS));
    engine.push(await measureClient('engine', SCANS));
  }
  const bareCpuPerScan = median(bare);
  const engineCpuPerScan = median(engine);
  const cpuPerScan = median(prod.map(cpuPerScanMs));
  const rssPerScan = median(prod.map(rssPerScanMiB));
  const p95Ratio = median(prod.map((b) => b.p95 / b.floorMs));
  const b = medianBurst(prod, rssPerScanMiB);
  const list = (bs: readonly Burst[], f: (b: Burst) => string) => bs.map(f).join(', ');
  const flags = START_NODE_FLAGS.length ? START_NODE_FLAGS.map((f) => `\`${f}\``).join(' ') : 'none';
  const markdown = [
    `## ${SCANS} concurrent scans through the service (\`npm run bench\`)`,
    '',
    `Measured ${started} on ${describeMachine()}; load average at start ${load}.`,
    `${SCANS} POST /scan at once, each of a distinct domain (copies of \`open-basic\`, 74 requests each), to \`src/main.ts\` (SQLite, NODE_ENV=production) scanning the test world (child process, ${LATENCY_MS} ms added to every response, both networks through their proxies). Targets: service CPU ≤ 40 ms per scan, peak RSS ≤ 1 MiB per scan in flight above the idle service, p95 ≤ 1.3 × the CPU floor.`,
    `${BURSTS} bursts with the Node flags \`npm start\` uses (${flags}), each followed by one under V8's own heap sizing; a fresh service and world for every burst. Figures are medians over the bursts, every burst listed.`,
    `After each pair, two references with the same flags (\`bench/lib/client-child.ts\`): bare undici making the same 74 requests for ${SCANS} sites at once (\`request()\` through a ProxyAgent per network, 8 at a time per site and network, bodies read and dropped), and the scan engine alone in-process. Bare undici is what the requests cost this machine before any scanning: the absolute target can only be judged beside it.`,
    '',
    '| figure | `npm start` (median) | each burst | V8 defaults (median) | each burst |',
    '|---|---|---|---|---|',
    `| answered 200 | ${b.ok} of ${SCANS} (headlines: ${b.headlines}) | ${list(prod, (x) => String(x.ok))} | | ${list(defaults, (x) => String(x.ok))} |`,
    `| service CPU per scan | ${fmt(cpuPerScan, 1)} ms | ${list(prod, (x) => fmt(cpuPerScanMs(x), 1))} | ${fmt(median(defaults.map(cpuPerScanMs)), 1)} ms | ${list(defaults, (x) => fmt(cpuPerScanMs(x), 1))} |`,
    `| the same requests by bare undici, no scanner (CPU per scan) | ${fmt(bareCpuPerScan, 1)} ms | ${bare.map((x) => fmt(x, 1)).join(', ')} | | |`,
    `| the scan engine alone, no HTTP server or storage (CPU per scan) | ${fmt(engineCpuPerScan, 1)} ms | ${engine.map((x) => fmt(x, 1)).join(', ')} | | |`,
    `| service CPU per scan against bare undici's | ${fmt(cpuPerScan / bareCpuPerScan, 2)} × | ${prod.map((x, i) => fmt(cpuPerScanMs(x) / bare[i]!, 2)).join(', ')} | | |`,
    `| peak RSS per scan in flight above the idle service | ${fmt(rssPerScan, 2)} MiB | ${list(prod, (x) => fmt(rssPerScanMiB(x), 2))} | ${fmt(median(defaults.map(rssPerScanMiB)), 2)} MiB | ${list(defaults, (x) => fmt(rssPerScanMiB(x), 2))} |`,
    `| service idle → peak RSS (VmHWM) | | ${list(prod, (x) => `${fmt(x.idleMiB)} → ${fmt(x.peakMiB)}`)} MiB | | ${list(defaults, (x) => `${fmt(x.idleMiB)} → ${fmt(x.peakMiB)}`)} MiB |`,
    `| p95 against the CPU floor of the same burst | ${fmt(p95Ratio, 2)} × | ${list(prod, (x) => fmt(x.p95 / x.floorMs, 2))} | ${fmt(median(defaults.map((x) => x.p95 / x.floorMs)), 2)} × | ${list(defaults, (x) => fmt(x.p95 / x.floorMs, 2))} |`,
    `| wall time for all ${SCANS} | | ${list(prod, (x) => fmt(x.wallMs))} ms | | ${list(defaults, (x) => fmt(x.wallMs))} ms |`,
    `| latency p50 / p95 / max | | ${list(prod, (x) => `${fmt(x.p50)} / ${fmt(x.p95)} / ${fmt(x.maxMs)}`)} ms | | ${list(defaults, (x) => `${fmt(x.p50)} / ${fmt(x.p95)} / ${fmt(x.maxMs)}`)} ms |`,
    `| CPU during the burst: service / test world / load generator | | ${list(prod, (x) => `${fmt(x.cpu.service, 1)} / ${fmt(x.cpu.world, 1)} / ${fmt(x.cpu.client, 1)}`)} s | | ${list(defaults, (x) => `${fmt(x.cpu.service, 1)} / ${fmt(x.cpu.world, 1)} / ${fmt(x.cpu.client, 1)}`)} s |`,
    `| floor: all that CPU spread over ${os.availableParallelism()} cores | | ${list(prod, (x) => fmt(x.floorMs))} ms | | ${list(defaults, (x) => fmt(x.floorMs))} ms |`,
  ].join('\n');
  return { markdown, burst: b, cpuPerScan, rssPerScan, p95Ratio, bareCpuPerScan, engineCpuPerScan };
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
