// One side of `npm run bench:scan -- --before <dir>`: the scan engine of a source tree (this one,
// or another checkout's: main's code before a change) measured in a process of its own against
// the parent's test world, so its CPU and memory figures are its own. Prints one JSON line.
//   node bench/lib/scan-child.ts <tree> <sequential runs> <concurrent scans> <first site number>
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [tree, runsArg, concurrentArg, firstArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 15);
const concurrent = Number(concurrentArg ?? 50);
const first = Number(firstArg ?? 0);
const load = (rel: string) => import(pathToFileURL(path.join(path.resolve(tree!), rel)).href);

const { createEgress } = await load('src/net/egress.ts');
const { parseScanResolve } = await load('src/net/resolve.ts');
const { createScanner } = await load('src/scanner/engine.ts');

const env = process.env;
const resolve = parseScanResolve(env.SCAN_RESOLVE);
const ca = readFileSync(env.NODE_EXTRA_CA_CERTS!, 'utf8');
const networks = () => ({
  networkA: createEgress({ name: 'networkA', proxyUrl: env.NETWORK_A_PROXY, resolve, ca }),
  networkB: createEgress({ name: 'networkB', proxyUrl: env.NETWORK_B_PROXY, resolve, ca }),
});
const site = (n: number) => `open-basic--${n}.world-fixtures.com`;
type Nets = ReturnType<typeof networks>;
let perNetwork = { networkA: 0, networkB: 0 };
const scan = async (nets: Nets, domain: string) => {
  // The DNS discovery lookups as the service makes them (SCAN_DOH_URL: the world's resolver); a tree
  // from before them ignores the option.
  const doh = env.SCAN_DOH_URL ? { doh: { url: env.SCAN_DOH_URL, userAgent: 'agent-readiness/1.0 (bench)' } } : {};
  const { evidence } = await createScanner({ networks: nets, deadlineMs: 25_000, probeTimeoutMs: 8_000, ...doh }).scan(domain);
  // Per network: requests to the site only (what its per-network bound queues); DoH lookups go to the resolver.
  const sent = (evidence as Array<{ network: string; key: string; errorCode: string | null }>).filter((e) => e.errorCode !== 'UNCONFIGURED' && !e.key.startsWith('dns:'));
  perNetwork = { networkA: sent.filter((e) => e.network === 'networkA').length, networkB: sent.filter((e) => e.network === 'networkB').length };
  return evidence.length as number;
};

// One pair of egresses for the whole child, as the service builds them once at start
// (src/services.ts): each scan's site is a new name, so its connections are cold and the engine
// releases them when the scan ends, while the DoH resolver, one host for every scan, keeps its
// connection and TLS session as it does in the service. A fresh pair per scan made every scan pay
// a full TLS handshake (and tunnel) to the resolver, which the service pays once.
const service = networks();
const timed = async (domain: string) => {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const requests = await scan(service, domain);
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, requests };
};
await timed(site(first + 9_000)); // warm-up (JIT, module caches, the resolver's connection)
const times: number[] = [];
const cpus: number[] = [];
let requests = 0;
for (let i = 0; i < runs; i++) {
  const r = await timed(site(first + 9_100 + i));
  times.push(r.ms);
  cpus.push(r.cpuMs);
  requests = r.requests;
}

// Concurrent scans of distinct sites sharing the two networks, as the service runs them.
globalThis.gc?.();
const baseRss = process.memoryUsage().rss;
let peakRss = baseRss;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 10);
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
await Promise.all(Array.from({ length: concurrent }, (_, i) => scan(service, site(first + i))));
const wall = performance.now() - wall0;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await Promise.all([service.networkA.close(), service.networkB.close()]);

process.stdout.write(`${JSON.stringify({ times, cpus, requests, perNetwork, wall, cpuMs: (cpu.user + cpu.system) / 1000, baseRss, peakRss })}\n`);
