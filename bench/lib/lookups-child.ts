// The DNS discovery lookups' own share of a scan (`npm run bench:scan -- --lookups`), measured
// paired in one process: the same engine, the same pair of egresses, scans with and without the
// lookups alternating, so what differs between the two is the lookups alone. Two processes per
// side (scan-child.ts) also differ by JIT state and heap layout: their medians moved by ±6 % between
// runs of the same tree, more than the 5 % this must resolve. Prints one JSON line.
//   node bench/lib/lookups-child.ts <sequential pairs> <concurrent rounds> <concurrent scans>
import { readFileSync } from 'node:fs';
import { createEgress } from '../../src/net/egress.ts';
import { parseScanResolve } from '../../src/net/resolve.ts';
import { createScanner } from '../../src/scanner/engine.ts';

const [pairsArg, roundsArg, concurrentArg] = process.argv.slice(2);
const pairs = Number(pairsArg ?? 100);
const rounds = Number(roundsArg ?? 30);
const concurrent = Number(concurrentArg ?? 50);
/** Scans before the measured ones (fewer when the smoke test asks for a tiny run). */
const WARM_UP = Math.min(12, pairs * 2);
const env = process.env;
const resolve = parseScanResolve(env.SCAN_RESOLVE);
const ca = readFileSync(env.NODE_EXTRA_CA_CERTS!, 'utf8');
// One pair for the whole run, as the service builds them once (src/services.ts): each scan's site
// is new (cold connections, released when it ends); the resolver keeps its connections.
const service = {
  networkA: createEgress({ name: 'networkA', proxyUrl: env.NETWORK_A_PROXY, resolve, ca }),
  networkB: createEgress({ name: 'networkB', proxyUrl: env.NETWORK_B_PROXY, resolve, ca }),
};
const doh = { url: env.SCAN_DOH_URL!, userAgent: 'agent-readiness/1.0 (bench)' };
let n = 0;
const scan = (withLookups: boolean) => createScanner({ networks: service, deadlineMs: 25_000, probeTimeoutMs: 8_000, ...(withLookups ? { doh } : {}) })
  .scan(`open-basic--${300_000 + n++}.world-fixtures.com`);
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

async function sequential(withLookups: boolean) {
  const t = performance.now();
  const c0 = process.cpuUsage();
  await scan(withLookups);
  return { cpu: cpuMs(process.cpuUsage(c0)), ms: performance.now() - t };
}
async function burst(withLookups: boolean) {
  const t = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrent }, () => scan(withLookups)));
  return { cpu: cpuMs(process.cpuUsage(c0)) / concurrent, ms: performance.now() - t };
}

// Warm-up: the engine's code reaches its optimised tiers over the first several scans (CPU per
// scan fell from ~160 to ~95 ms over the first seven), and the resolver's connections open.
for (let i = 0; i < WARM_UP; i++) await sequential(i % 2 === 0);
await burst(true);
await burst(false);

type Pair = { with: { cpu: number; ms: number }; without: { cpu: number; ms: number } };
async function paired(count: number, measure: (withLookups: boolean) => Promise<{ cpu: number; ms: number }>): Promise<Pair[]> {
  const out: Pair[] = [];
  for (let i = 0; i < count; i++) {
    // Alternate which goes first, so a drift of the machine falls on both.
    const first = i % 2 === 0;
    const a = await measure(first);
    const b = await measure(!first);
    out.push(first ? { with: a, without: b } : { with: b, without: a });
  }
  return out;
}
const seq = await paired(pairs, sequential);
const conc = await paired(rounds, burst);
await Promise.all([service.networkA.close(), service.networkB.close()]);
process.stdout.write(`${JSON.stringify({ seq, conc })}\n`);
