// Child process of the concurrent-scans benchmark: N scans' worth of requests at once, made
// by bare undici (`request()` through a ProxyAgent per network, 8 at a time per site and
// network, nothing else), by Node's own sockets and TLS with no HTTP library
// (bench/lib/sockets-client.ts), or by the scan engine in-process (no HTTP server, no storage). The
// request set is one real scan's, recorded first by the engine. Prints one line of JSON: CPU
// per scan of this process during the burst. The world's proxies and CA come from the env.
// Arguments: bare|sockets|engine, the scans at once, and optionally a warm-up burst's size.
import { readFileSync } from 'node:fs';
import { ProxyAgent, request } from 'undici';
import pLimit from 'p-limit';
import { createEgress } from '../../src/net/egress.ts';
import { parseScanResolve } from '../../src/net/resolve.ts';
import { createScanner, DEFAULT_CONCURRENCY } from '../../src/scanner/engine.ts';
import type { EvidenceRecord } from '../../src/scanner/types.ts';
import { BENCH_HEADLINE, benchSite, SITES as ALL_SITES } from './sites.ts';
import { createSocketsClient } from './sockets-client.ts';

const [mode, count, warmup] = [process.argv[2] as 'bare' | 'sockets' | 'engine', Number(process.argv[3]), Number(process.argv[4] ?? 0)];
const env = process.env;
const resolve = parseScanResolve(env.SCAN_RESOLVE);
const networks = {
  networkA: createEgress({ name: 'networkA', proxyUrl: env.NETWORK_A_PROXY, allowDirect: true, resolve, connections: DEFAULT_CONCURRENCY }),
  networkB: createEgress({ name: 'networkB', proxyUrl: env.NETWORK_B_PROXY, allowDirect: false, resolve, connections: DEFAULT_CONCURRENCY }),
};
const scanner = createScanner({ networks, deadlineMs: 120_000, probeTimeoutMs: 60_000 });

const SITES = ALL_SITES.client;
const recorded = await scanner.scan(benchSite(SITES.plan));
if (recorded.report.headline !== BENCH_HEADLINE) throw new Error(`the recorded scan's headline is ${recorded.report.headline}, not ${BENCH_HEADLINE}`);
const { evidence } = recorded;
const plan = (evidence as EvidenceRecord[]).map((e) => ({
  network: e.network as 'networkA' | 'networkB',
  path: new URL(e.url).pathname,
  headers: Object.fromEntries(Object.entries(e.requestHeaders ?? {}).filter(([k]) => k !== 'host')),
}));

const agents = {
  networkA: new ProxyAgent({ uri: env.NETWORK_A_PROXY!, connections: DEFAULT_CONCURRENCY }),
  networkB: new ProxyAgent({ uri: env.NETWORK_B_PROXY!, connections: DEFAULT_CONCURRENCY }),
};
async function bare(domain: string): Promise<void> {
  const limits = { networkA: pLimit(DEFAULT_CONCURRENCY), networkB: pLimit(DEFAULT_CONCURRENCY) };
  await Promise.all(plan.map((r) => limits[r.network](async () => {
    const res = await request(`https://${domain}${r.path}`, { headers: r.headers, dispatcher: agents[r.network] });
    await res.body.arrayBuffer();
  })));
}
const expected = (evidence as EvidenceRecord[]).map((e) => e.status).toSorted().join();
const sockets = createSocketsClient({
  proxies: { networkA: new URL(env.NETWORK_A_PROXY!), networkB: new URL(env.NETWORK_B_PROXY!) },
  ca: readFileSync(env.NODE_EXTRA_CA_CERTS!), perSite: DEFAULT_CONCURRENCY,
});
async function overSockets(domain: string): Promise<void> {
  const statuses = await sockets.scan(domain, plan);
  if (statuses.toSorted().join() !== expected) throw new Error(`${domain}: over sockets, statuses ${statuses.toSorted().join()}, where the engine read ${expected}`);
}
const engine = async (domain: string): Promise<void> => { await scanner.scan(domain); };
const run = { bare, sockets: overSockets, engine }[mode];

await run(benchSite(SITES.warmupScan));
// As the service's warm-up burst (bench/concurrent-scans.ts): other sites, all at once.
if (warmup > 0) await Promise.all(Array.from({ length: warmup }, (_, i) => run(benchSite(SITES.firstBurst + i))));
const before = process.cpuUsage();
await Promise.all(Array.from({ length: count }, (_, i) => run(benchSite(SITES.burst + i))));
const used = process.cpuUsage(before);
console.log(JSON.stringify({ mode, scans: count, requestsPerScan: plan.length, cpuMsPerScan: (used.user + used.system) / 1000 / count }));
process.exit(0); // the agents' keep-alive sockets would hold the process for seconds
