/**
 * `npm run bench:scan`: scan times on the test world with 50 ms added to every
 * response, against the critical path, and the cost of 50 concurrent scans.
 * Asserts nothing; writes its figures into bench/results.md (its own section).
 *
 * The world runs in a child process so the CPU and memory figures are the
 * scanner's alone.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { createEgress } from '../src/net/egress.ts';
import { parseScanResolve } from '../src/net/resolve.ts';
import { createScanner, DEFAULT_CONCURRENCY } from '../src/scanner/engine.ts';
import { gridKeys } from '../src/scanner/grid.ts';
import { startWorld } from './lib/child.ts';
import { benchSite } from './lib/sites.ts';

const LATENCY_MS = 50;
const RUNS = 30;
const CONCURRENT = 50;
const SITE = 'open-basic.world-fixtures.com';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

const world = await startWorld(LATENCY_MS);
// `--before <dir>`: the same figures for another checkout's engine (main's code before a change)
// beside this tree's, interleaved in one run (bench/lib/scan-compare.ts), written to their own section.
const beforeAt = process.argv.indexOf('--before');
if (beforeAt > 0) {
  const { compareEngines } = await import('./lib/scan-compare.ts');
  await compareEngines(process.argv[beforeAt + 1]!, world.env, LATENCY_MS);
  await world.stop();
  process.exit(0);
}
// `--lookups`: the DNS discovery lookups' own share of a scan, paired in one process (bench/lib/scan-lookups.ts).
if (process.argv.includes('--lookups')) {
  const { measureLookups } = await import('./lib/scan-lookups.ts');
  await measureLookups(world.env, LATENCY_MS, !process.argv.includes('--no-write'));
  await world.stop();
  process.exit(0);
}
const resolve = parseScanResolve(world.env.SCAN_RESOLVE);
const ca = readFileSync(world.env.NODE_EXTRA_CA_CERTS!, 'utf8');
const networks = () => ({
  networkA: createEgress({ name: 'networkA', proxyUrl: world.env.NETWORK_A_PROXY, resolve, ca }),
  networkB: createEgress({ name: 'networkB', proxyUrl: world.env.NETWORK_B_PROXY, resolve, ca }),
});
const scanOnce = async (shared?: ReturnType<typeof networks>, site = SITE) => {
  const nets = shared ?? networks();
  const t = performance.now();
  const { evidence } = await createScanner({ networks: nets, deadlineMs: 25_000, probeTimeoutMs: 8_000 }).scan(site);
  const ms = performance.now() - t;
  if (!shared) await Promise.all([nets.networkA.close(), nets.networkB.close()]);
  return { ms, requests: evidence.length };
};

// One request on a fresh connection (handshake included) and one on a kept-alive
// connection: the critical path is one cold round then warm rounds.
const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < 10; i++) {
  const e = createEgress({ name: 'networkA', proxyUrl: world.env.NETWORK_A_PROXY, resolve, ca });
  const req = { url: `https://${SITE}/robots.txt`, timeoutMs: 8000, maxBodyBytes: 65536, maxRedirects: 5 };
  let t = performance.now();
  await e.fetch(req);
  cold.push(performance.now() - t);
  t = performance.now();
  await e.fetch(req);
  warm.push(performance.now() - t);
  await e.close();
}
const coldRequest = pct(cold, 50);
const warmRequest = pct(warm, 50);
const gridPerNetwork = gridKeys().length;
const rounds = 1 + Math.ceil(gridPerNetwork / DEFAULT_CONCURRENCY);
const criticalPath = coldRequest + (rounds - 1) * warmRequest;

await scanOnce(); // warm-up (JIT, module caches)
const times: number[] = [];
let requests = 0;
for (let i = 0; i < RUNS; i++) {
  const r = await scanOnce();
  times.push(r.ms);
  requests = r.requests;
}
const p50 = pct(times, 50);
const p95 = pct(times, 95);

// 50 concurrent scans sharing the two networks, as the service does.
const shared = networks();
let peakRss = process.memoryUsage().rss;
const baseRss = peakRss;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 10);
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
// Fifty different sites (copies of the scenario under distinct names), as a service would see them.
await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => scanOnce(shared, benchSite(i))));
const wall = performance.now() - wall0;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await Promise.all([shared.networkA.close(), shared.networkB.close()]);
await world.stop();

const cpus = os.cpus();
const f = (n: number) => n.toFixed(0);
const section = [
  '<!-- bench:scan:start -->',
  '## Scan engine (`npm run bench:scan`)',
  '',
  `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${f(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}.`,
  `World: every response delayed ${LATENCY_MS} ms, HTTPS through the two loopback forward proxies (world in a child process). Site \`${SITE}\`, ${requests} requests per scan, ${DEFAULT_CONCURRENCY} in parallel per network.`,
  '',
  '| figure | value |',
  '|---|---|',
  `| one request, new connection / kept-alive connection (medians of 10) | ${f(coldRequest)} ms / ${f(warmRequest)} ms |`,
  `| critical path: robots.txt, then one round of the grid (${gridPerNetwork} cells per network, ${DEFAULT_CONCURRENCY} at a time) = ${rounds} requests deep, the first on a new connection | ${f(criticalPath)} ms |`,
  `| scan time p50 (${RUNS} sequential scans, cold connections) | ${f(p50)} ms (${(p50 / criticalPath).toFixed(2)} × critical path) |`,
  `| scan time p95 | ${f(p95)} ms (${(p95 / criticalPath).toFixed(2)} × critical path) |`,
  `| spec floor / p50 | ${(10_000 / p50).toFixed(1)} × faster than 10 s |`,
  `| ${CONCURRENT} concurrent scans of distinct sites: wall time | ${f(wall)} ms |`,
  `| ${CONCURRENT} concurrent scans: process CPU (user + system) | ${f((cpu.user + cpu.system) / 1000)} ms |`,
  `| ${CONCURRENT} concurrent scans: peak RSS (baseline before) | ${f(peakRss / 2 ** 20)} MiB (${f(baseRss / 2 ** 20)} MiB) |`,
  '<!-- bench:scan:end -->',
].join('\n');

const path = new URL('./results.md', import.meta.url);
const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
const next = /<!-- bench:scan:start -->[\s\S]*<!-- bench:scan:end -->/.test(current)
  ? current.replace(/<!-- bench:scan:start -->[\s\S]*<!-- bench:scan:end -->/, section)
  : `${current.trimEnd()}\n\n${section}\n`;
writeFileSync(path, next);
process.stdout.write(`${section}\n`);
