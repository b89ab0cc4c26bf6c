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

export async function benchConcurrentScans(nodeArgs: string[] = []): Promise<{ markdown: string; p95: number; peakMiB: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scans-'));
  const world = await startWorld(LATENCY_MS);
  const service = await spawnService({
    DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, NODE_ENV: 'production', MAIL_DIR: path.join(dir, 'mail'),
    NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!,
    NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!, RATE_LIMIT_PER_IP: '100000/1', RATE_LIMIT_PER_DOMAIN: '100000/1',
  }, { nodeArgs });
  const client = new Agent({ connections: SCANS + 10, headersTimeout: 120_000, bodyTimeout: 120_000 });
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
    const baseRss = peakRssMiB(service.process.pid!);
    const cpu0 = { service: cpuSeconds(service.process.pid!), world: cpuSeconds(world.pid), bench: process.cpuUsage() };
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: SCANS }, (_, i) => scan(`open-basic--${i}.world-fixtures.com`)));
    const wall = performance.now() - started;
    const bench = process.cpuUsage(cpu0.bench);
    const cpu = {
      service: cpuSeconds(service.process.pid!) - cpu0.service,
      world: cpuSeconds(world.pid) - cpu0.world,
      client: (bench.user + bench.system) / 1e6,
    };
    const cores = os.availableParallelism();
    const floorMs = (1000 * (cpu.service + cpu.world + cpu.client)) / cores;
    const peakMiB = peakRssMiB(service.process.pid!);
    const ms = results.map((r) => r.ms);
    const ok = results.filter((r) => r.status === 200).length;
    const headlines = [...new Set(results.map((r) => r.headline ?? `HTTP ${r.status}`))].join(', ');
    const p95 = percentile(ms, 95);
    const markdown = [
      '## 100 concurrent scans through the service (`npm run bench`)',
      '',
      `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}.`,
      `${SCANS} POST /scan at once, each of a distinct domain (copies of \`open-basic\`), to \`src/main.ts\` (SQLite, NODE_ENV=production) scanning the test world (child process, ${LATENCY_MS} ms added to every response, both networks through their proxies). Targets: p95 ≤ 3 s, peak memory ≤ 400 MB.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| answered 200 | ${ok} of ${SCANS} (headlines: ${headlines}) |`,
      `| wall time for all ${SCANS} | ${fmt(wall)} ms |`,
      `| throughput | ${fmt((SCANS * 1000) / wall, 1)} scans/s |`,
      `| latency p50 / p95 / max | ${fmt(median(ms))} / ${fmt(p95)} / ${fmt(Math.max(...ms))} ms |`,
      `| service peak RSS (VmHWM), before the burst | ${fmt(peakMiB)} MiB (${fmt(baseRss)} MiB) |`,
      `| CPU used during the burst: service / test world (sites and both proxies) / load generator | ${fmt(cpu.service, 1)} s / ${fmt(cpu.world, 1)} s / ${fmt(cpu.client, 1)} s |`,
      `| floor: all that CPU spread over ${cores} cores | ${fmt(floorMs)} ms (the wall time is ${fmt(wall / floorMs, 2)} × this) |`,
    ].join('\n');
    return { markdown, p95, peakMiB };
  } finally {
    await client.close();
    await service.stop();
    world.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { markdown } = await benchConcurrentScans();
  writeSection('concurrent-scans', markdown);
  console.log(markdown);
}
