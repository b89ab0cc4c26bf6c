// 100 concurrent POST /scan of distinct domains against the real service (src/main.js)
// scanning the test world (world in its own child process, every response delayed
// WORLD_LATENCY_MS): throughput, latency percentiles and the service's peak memory
// (VmHWM of the child). Asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { root, spawnService, startWorld, START_NODE_FLAGS } from './lib/child.ts';
import { BENCH_HEADLINE, benchSite, SITES as ALL_SITES } from './lib/sites.ts';
import { cpuSeconds, describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { settleTimeWait, timeWaitSockets } from './lib/time-wait.ts';
import { fmt, median, percentile } from './lib/stats.ts';

const SCANS = Number(process.env.BENCH_SCANS ?? 100);
/** Bursts per configuration: a single burst's memory figure moves by ±20 % with GC timing. */
const BURSTS = Number(process.env.BENCH_BURSTS ?? 3);
const LATENCY_MS = Number(process.env.WORLD_LATENCY_MS ?? 50);
const SITES = ALL_SITES.service;

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
  /** Sockets in TIME_WAIT on the machine when the burst started (null where unknown). */
  timeWait: number | null;
}

export interface BurstOptions {
  /** Node flags of the service; `npm start`'s unless given (`[]`: V8's own heap sizing). */
  nodeArgs?: string[];
  /**
   * Scans of other sites, all at once, run before the measured burst (after the one warm-up
   * scan every burst has): a service that has run a while, its hot code already compiled by V8.
   */
  warmup?: number;
  /** Called with the service's pid just before the burst; what it returns, just after (bench/lib/perf.ts). */
  watch?: (servicePid: number) => Promise<() => Promise<void>>;
  /** Wait first until the earlier bursts' closed connections have left TIME_WAIT (lib/time-wait.ts). */
  settle?: boolean;
}

/**
 * `count` POST /scan at once against a fresh service process (so VmHWM is this burst's alone,
 * from the idle resident size just before it).
 */
export async function measureBurst(count: number, { nodeArgs, warmup = 0, watch, settle = false }: BurstOptions = {}): Promise<Burst> {
  const timeWait = settle ? await settleTimeWait() : timeWaitSockets();
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
    const warmups = [await scan(benchSite(SITES.warmupScan))]; // JIT and connection set-up, not counted
    if (warmup > 0) warmups.push(...(await Promise.all(Array.from({ length: warmup }, (_, i) => scan(benchSite(SITES.firstBurst + i))))));
    const odd = warmups.find((w) => w.status !== 200 || w.headline !== BENCH_HEADLINE);
    if (odd) throw new Error(`a warm-up scan answered ${odd.status} with headline ${odd.headline}, not 200 and ${BENCH_HEADLINE}: it did not scan the benchmark site`);
    const idleMiB = idleRssMiB(service.process.pid!);
    const unwatch = await watch?.(service.process.pid!); // a sampler attached for the burst alone
    const cpu0 = { service: cpuSeconds(service.process.pid!), world: cpuSeconds(world.pid), bench: process.cpuUsage() };
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: count }, (_, i) => scan(benchSite(SITES.burst + i))));
    const wallMs = performance.now() - started;
    const bench = process.cpuUsage(cpu0.bench);
    await unwatch?.();
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
      timeWait,
    };
  } finally {
    await client.close();
    await service.stop();
    await world.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same burst without the service: bare undici making one scan's 74 requests for each of
 * `count` sites at once, or the scan engine alone in-process, in a child process with the flags
 * `npm start` uses, against a fresh world, after `warmup` other sites at once as the service's
 * warm-up burst. CPU per scan of that process, in ms.
 */
export async function measureClient(mode: 'bare' | 'sockets' | 'engine', count: number, warmup = 0): Promise<number> {
  const world = await startWorld(LATENCY_MS);
  try {
    const child = spawn(process.execPath, [...START_NODE_FLAGS, 'bench/lib/client-child.ts', mode, String(count), String(warmup)], { cwd: root, env: { ...process.env, ...world.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`bench/lib/client-child.ts ${mode} exited with ${code}`);
    return (JSON.parse(out.trim().split('\n').at(-1)!) as { cpuMsPerScan: number }).cpuMsPerScan;
  } finally {
    await world.stop();
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

export interface ConcurrentScans {
  markdown: string; burst: Burst; cpuPerScan: number; rssPerScan: number; p95Ratio: number; bareCpuPerScan: number; engineCpuPerScan: number;
  /** The same requests over Node's own sockets and TLS, no HTTP library (bench/lib/sockets-client.ts). */
  socketsCpuPerScan: number;
  /** After a first burst on the same process: the service's and bare undici's. */
  warmCpuPerScan: number; bareWarmCpuPerScan: number;
}

/**
 * BURSTS bursts of SCANS scans with the service as `npm start` runs it, alternating with as many
 * under V8's own heap sizing (no flags), so the flags' effect on memory and CPU is measured side
 * by side. Each target figure is the median over the bursts.
 */
export async function benchConcurrentScans(): Promise<ConcurrentScans> {
  const started = nowIso();
  const load = os.loadavg()[0]!.toFixed(2);
  const prod: Burst[] = [];
  const warm: Burst[] = [];
  const defaults: Burst[] = [];
  const bare: number[] = [];
  const engine: number[] = [];
  const bareWarm: number[] = [];
  const engineWarm: number[] = [];
  const sockets: number[] = [];
  const socketsWarm: number[] = [];
  for (let i = 0; i < BURSTS; i++) {
    prod.push(await measureBurst(SCANS, { settle: true }));
    warm.push(await measureBurst(SCANS, { warmup: SCANS }));
    defaults.push(await measureBurst(SCANS, { nodeArgs: [] }));
    bare.push(await measureClient('bare', SCANS));
    bareWarm.push(await measureClient('bare', SCANS, SCANS));
    sockets.push(await measureClient('sockets', SCANS));
    socketsWarm.push(await measureClient('sockets', SCANS, SCANS));
    engine.push(await measureClient('engine', SCANS));
    engineWarm.push(await measureClient('engine', SCANS, SCANS));
  }
  const warmCpuPerScan = median(warm.map(cpuPerScanMs));
  const bareWarmCpuPerScan = median(bareWarm);
  const bareCpuPerScan = median(bare);
  const engineCpuPerScan = median(engine);
  const socketsCpuPerScan = median(sockets);
  const cpuPerScan = median(prod.map(cpuPerScanMs));
  const rssPerScan = median(prod.map(rssPerScanMiB));
  const p95Ratio = median(prod.map((b) => b.p95 / b.floorMs));
  const b = medianBurst(prod, rssPerScanMiB);
  const list = (bs: readonly Burst[], f: (b: Burst) => string) => bs.map(f).join(', ');
  const flags = START_NODE_FLAGS.length ? START_NODE_FLAGS.map((f) => `\`${f}\``).join(' ') : 'none';
  const nums = (xs: readonly number[], digits = 1) => xs.map((x) => fmt(x, digits)).join(', ');
  // One row: the figure with `npm start`'s flags, after a first burst, and under V8's defaults.
  const row = (what: string, f: (x: Burst) => string, median3?: [string, string, string]) =>
    `| ${what} | ${median3?.[0] ?? ''} | ${list(prod, f)} | ${median3?.[1] ?? ''} | ${list(warm, f)} | ${median3?.[2] ?? ''} | ${list(defaults, f)} |`;
  const ms = (bs: readonly Burst[]) => `${fmt(median(bs.map(cpuPerScanMs)), 1)} ms`;
  const mib = (bs: readonly Burst[]) => `${fmt(median(bs.map(rssPerScanMiB)), 2)} MiB`;
  const ratio = (bs: readonly Burst[]) => `${fmt(median(bs.map((x) => x.p95 / x.floorMs)), 2)} ×`;
  const markdown = [
    `## ${SCANS} concurrent scans through the service (\`npm run bench\`)`,
    '',
    `Measured ${started} on ${describeMachine()}; load average at start ${load}.`,
    `${SCANS} POST /scan at once, each of a distinct domain (copies of \`open-basic\`, 74 requests each), to \`src/main.js\` (SQLite, NODE_ENV=production) scanning the test world (child process, ${LATENCY_MS} ms added to every response, both networks through their proxies). Targets: service CPU ≤ 40 ms per scan, peak RSS ≤ 1 MiB per scan in flight above the idle service, p95 ≤ 1.3 × the CPU floor.`,
    `${BURSTS} rounds, a fresh service and world for every burst, each burst after one warm-up scan: with the Node flags \`npm start\` uses (${flags}); the same after a first burst of ${SCANS} other sites on the same service (a service that has run a while: V8 has compiled its hot code, which a fresh process does during its first burst); and under V8's own heap sizing. Figures are medians over the bursts, every burst listed. Each \`npm start\` burst starts once fewer than 3,000 sockets are left in TIME_WAIT by the bursts before it (\`bench/lib/time-wait.ts\`): the world's proxies reach every test site at one address and port, so their closed connections fill the ephemeral range towards it (real sites are many addresses), and a burst started with 25,000 of its 28,232 ports held measured half as much memory again per scan; the other bursts and the references start as they come, with the count listed.`,
    `Each round also measures three references with the same flags (\`bench/lib/client-child.ts\`), fresh and after the same first burst: bare undici making the same 74 requests for ${SCANS} sites at once (\`request()\` through a ProxyAgent per network, 8 at a time per site and network, bodies read and dropped); the same requests over Node's own sockets and TLS with no HTTP library (\`bench/lib/sockets-client.ts\`: a CONNECT tunnel and TLS per connection, 8 connections per site and network, 14 of 16 resuming a session as the egress does, each answer read only to its end); and the scan engine alone in-process. Bare undici is what a plain client costs this machine for the same requests, a reference and not a floor: it opens each site's connections at once and so resumes almost no TLS session, where the egress resumes 14 of 16 (bench/results.md, notes). The sockets row is near the floor of Node itself: it parses nothing, checks nothing and keeps nothing, so no real client comes down to it.`,
    '',
    '| figure | `npm start` (median) | each burst | after a first burst (median) | each burst | V8 defaults (median) | each burst |',
    '|---|---|---|---|---|---|---|',
    row('answered 200', (x) => String(x.ok), [`${b.ok} of ${SCANS} (headlines: ${b.headlines})`, '', '']),
    row('service CPU per scan', (x) => fmt(cpuPerScanMs(x), 1), [ms(prod), ms(warm), ms(defaults)]),
    `| the same requests by bare undici, no scanner (CPU per scan) | ${fmt(bareCpuPerScan, 1)} ms | ${nums(bare)} | ${fmt(bareWarmCpuPerScan, 1)} ms | ${nums(bareWarm)} | | |`,
    `| the same requests over Node's own TLS sockets, no HTTP library (CPU per scan) | ${fmt(socketsCpuPerScan, 1)} ms | ${nums(sockets)} | ${fmt(median(socketsWarm), 1)} ms | ${nums(socketsWarm)} | | |`,
    `| the scan engine alone, no HTTP server or storage (CPU per scan) | ${fmt(engineCpuPerScan, 1)} ms | ${nums(engine)} | ${fmt(median(engineWarm), 1)} ms | ${nums(engineWarm)} | | |`,
    `| service CPU per scan against bare undici's | ${fmt(cpuPerScan / bareCpuPerScan, 2)} × | ${nums(prod.map((x, i) => cpuPerScanMs(x) / bare[i]!), 2)} | ${fmt(warmCpuPerScan / bareWarmCpuPerScan, 2)} × | ${nums(warm.map((x, i) => cpuPerScanMs(x) / bareWarm[i]!), 2)} | | |`,
    row('peak RSS per scan in flight above the idle service', (x) => fmt(rssPerScanMiB(x), 2), [mib(prod), mib(warm), mib(defaults)]),
    row('service idle → peak RSS (VmHWM), MiB', (x) => `${fmt(x.idleMiB)} → ${fmt(x.peakMiB)}`),
    row('sockets in TIME_WAIT on the machine at the burst\'s start', (x) => (x.timeWait === null ? 'unknown' : fmt(x.timeWait))),
    row('p95 against the CPU floor of the same burst', (x) => fmt(x.p95 / x.floorMs, 2), [ratio(prod), ratio(warm), ratio(defaults)]),
    row(`wall time for all ${SCANS}, ms`, (x) => fmt(x.wallMs)),
    row('latency p50 / p95 / max, ms', (x) => `${fmt(x.p50)} / ${fmt(x.p95)} / ${fmt(x.maxMs)}`),
    row('CPU during the burst: service / test world / load generator, s', (x) => `${fmt(x.cpu.service, 1)} / ${fmt(x.cpu.world, 1)} / ${fmt(x.cpu.client, 1)}`),
    row(`floor: all that CPU spread over ${os.availableParallelism()} cores, ms`, (x) => fmt(x.floorMs)),
  ].join('\n');
  return { markdown, burst: b, cpuPerScan, rssPerScan, p95Ratio, bareCpuPerScan, engineCpuPerScan, socketsCpuPerScan, warmCpuPerScan, bareWarmCpuPerScan };
}

/** How service CPU, memory and wall time grow with the number of scans at once. */
export async function benchScaling(counts: readonly number[] = (process.env.BENCH_SCALING ?? '1,10,100,300').split(',').map(Number)): Promise<{ markdown: string; bursts: Burst[] }> {
  const bursts: Burst[] = [];
  for (const n of counts) bursts.push(await measureBurst(n, { settle: true }));
  const perCore = bursts.map((b) => 1000 / cpuPerScanMs(b));
  const markdown = [
    '## Scaling: 1 to 300 scans at once (`npm run bench`)',
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}. Each row is a fresh service process and world, started once fewer than 3,000 sockets are left in TIME_WAIT by the rows before (\`bench/lib/time-wait.ts\`); the world adds ${LATENCY_MS} ms to every response.`,
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
