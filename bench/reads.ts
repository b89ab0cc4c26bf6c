// Read endpoints under autocannon, side by side with a bare Express hello-world on the
// same machine in the same run: GET /health, /api/checks, /badge/{domain}.svg and the
// /r/{scanId} HTML page of the real service (src/main.js, NODE_ENV=production, its
// request log on), each as a share of the baseline's requests per second. The page is measured
// twice: asked for plainly, and as a browser asks (Accept-Encoding with br), which gets it
// compressed.
// `node bench/reads.ts` alone, or through `npm run bench`. Asserts nothing.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { request } from 'undici';
import { loadConfig } from '../src/config.ts';
import { buildContext } from '../src/server.ts';
import { buildScanServices } from '../src/scans/services.ts';
import { cannedReport, evidenceFor } from '../test/scan-api/fixtures.ts';
import { spawnHello, spawnService, type Child } from './lib/child.ts';
import { cpuSeconds, describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median } from './lib/stats.ts';

const CONNECTIONS = 10;
// Many short rounds rather than a few long ones, for the same requests in all: on a shared
// machine a burst of load elsewhere lasts seconds and hits one side of a long round (single
// rounds of 30,000 requests ran from 40 % to 126 %, and the median of five moved by up to 15
// points between runs); rounds of 6,000 put the baseline and the endpoint a third of a second apart,
// and the median of 25 ratios shrugs off a few bad ones (bench/results.md, notes).
const AMOUNT = Number(process.env.BENCH_READS_AMOUNT ?? 6_000);
const ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 25);
const DOMAIN = 'bench-reads.com';

export interface ReadFigure {
  name: string; path: string; rps: number; p50: number; p99: number; non2xx: number; errors: number;
  /** The server process's CPU (user + system) per request over the measured run, in µs. */
  cpuUs: number;
}

/** Bytes of one response body on the wire (undici's request decodes nothing), for the same-size baseline. */
async function bodyBytes(url: string, headers: Record<string, string>): Promise<number> {
  const res = await request(url, { headers });
  return (await res.body.arrayBuffer()).byteLength;
}

/** Archives one report in a fresh SQLite file, the way POST /scan would, and returns its id. */
async function seed(databaseUrl: string): Promise<string> {
  const ctx = await buildContext(loadConfig({ DATABASE_URL: databaseUrl, BASE_URL: 'http://bench.test' }), pino({ level: 'silent' }));
  const services = buildScanServices(ctx, {
    scanner: { scan: async (d) => ({ report: cannedReport(d), evidence: evidenceFor(d) }) },
    resolve: async () => ({ ok: true, addresses: ['93.184.215.14'], source: 'static' }),
  });
  const out = await services.scans.scan({ domain: DOMAIN, lead: { name: 'Bench Mark', email: 'bench@bench-reads.com' }, clientIp: '127.0.0.1' });
  await ctx.db.destroy();
  return out.body.scanId;
}

async function hammer(name: string, server: Child, urlPath: string, headers: Record<string, string> = {}): Promise<ReadFigure> {
  const base = server.url;
  // A bounded run only stops on a sampling tick (1 s by default): sample every 20 ms so the
  // wall time is not rounded up to whole seconds.
  const run = (amount: number) => autocannon({ url: base + urlPath, amount, connections: CONNECTIONS, headers, sampleInt: 20 });
  await run(Math.min(2000, AMOUNT)); // warm-up: JIT, caches, connection set-up
  const cpu0 = cpuSeconds(server.process.pid!);
  const t0 = performance.now();
  const r = await run(AMOUNT);
  const seconds = (performance.now() - t0) / 1000;
  const cpuUs = (1e6 * (cpuSeconds(server.process.pid!) - cpu0)) / (r.requests.total || AMOUNT);
  if (r.non2xx || r.errors) console.warn(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, statuses ${JSON.stringify(r.statusCodeStats)}`);
  // Completed requests over wall time: autocannon's per-second samples are coarse on short runs.
  return { name, path: urlPath, rps: (r.requests.total || AMOUNT) / seconds, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpuUs };
}

export interface ReadShares {
  /** Median over the rounds of the endpoint's req/s over bare Express's hello-world, and over bare Express sending as many bytes. */
  share: number;
  sameBytesShare: number;
  /** Median over the rounds of bare Express's server CPU per request over the endpoint's. */
  cpuShare: number;
}

export async function benchReads(): Promise<{ markdown: string; figures: ReadFigure[]; baseline: number; shares: Map<string, ReadShares> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-reads-'));
  const databaseUrl = `sqlite:${path.join(dir, 'db.sqlite')}`;
  const scanId = await seed(databaseUrl);
  let hello: Child | undefined;
  let service: Child | undefined;
  try {
    hello = await spawnHello();
    service = await spawnService({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', MAIL_DIR: path.join(dir, 'mail') });
    const endpoints: Array<[string, string, Record<string, string>]> = [
      ['GET /health', '/health', {}],
      ['GET /api/checks', '/api/checks', {}],
      ['GET /badge/{domain}.svg', `/badge/${DOMAIN}.svg`, {}],
      ['GET /r/{scanId} (HTML)', `/r/${scanId}`, { accept: 'text/html' }],
      // As every browser asks for it: the page goes brotli-compressed (made once, kept with the page).
      ['GET /r/{scanId} (HTML, br as a browser asks)', `/r/${scanId}`, { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br, zstd' }],
    ];
    // Each endpoint is measured right after the baseline, ROUNDS times, so that load from
    // anything else on the machine hits both sides alike; the medians are reported, and every
    // share is the median of the rounds' own ratios.
    interface Round { hello: ReadFigure; same: ReadFigure; service: ReadFigure }
    const helloBytes = await bodyBytes(`${hello.url}/`, {});
    const per = new Map<string, { bytes: number; rounds: Round[] }>();
    for (const [name, urlPath, headers] of endpoints) per.set(name, { bytes: await bodyBytes(service.url + urlPath, headers), rounds: [] });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, urlPath, headers] of endpoints) {
        const entry = per.get(name)!;
        const h = await hammer('bare Express hello-world', hello, '/');
        const same = await hammer('bare Express, same bytes', hello, `/sized/${entry.bytes}`);
        entry.rounds.push({ hello: h, same, service: await hammer(name, service, urlPath, headers) });
      }
    }
    const allRounds = [...per.values()].flatMap((e) => e.rounds);
    const baseline = median(allRounds.map((r) => r.hello.rps));
    const helloCpu = median(allRounds.map((r) => r.hello.cpuUs));
    const figures: ReadFigure[] = [...per.entries()].map(([name, { rounds }]) => {
      const figs = rounds.map((r) => r.service);
      return {
        name, path: figs[0]!.path, rps: median(figs.map((f) => f.rps)), p50: median(figs.map((f) => f.p50)), p99: median(figs.map((f) => f.p99)),
        non2xx: figs.reduce((a, f) => a + f.non2xx, 0), errors: figs.reduce((a, f) => a + f.errors, 0), cpuUs: median(figs.map((f) => f.cpuUs)),
      };
    });
    const roundsOf = (name: string) => per.get(name)!.rounds;
    const shareInRound = (r: Round) => r.service.rps / r.hello.rps;
    const shares = new Map<string, ReadShares>(figures.map((f) => [f.name, {
      share: median(roundsOf(f.name).map(shareInRound)),
      sameBytesShare: median(roundsOf(f.name).map((r) => r.service.rps / r.same.rps)),
      cpuShare: median(roundsOf(f.name).map((r) => r.hello.cpuUs / r.service.cpuUs)),
    }]));
    const markdown = [
      '## Read endpoints against bare Express (`npm run bench`)',
      '',
      `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)} (the machine is shared).`,
      `autocannon in the benchmark process, ${CONNECTIONS} connections, ${fmt(AMOUNT)} requests per measurement after a warm-up; the service and the baseline each in their own child process.`,
      `Each endpoint is measured right after the baseline, ${ROUNDS} rounds; medians shown, the share is the median of the per-round ratios.`,
      'A second baseline per endpoint is bare Express sending a body of the same size (`/sized/<bytes>` of `bench/lib/hello.ts`): the load generator shares the two cores, and reading a 12 KB page costs it more than reading the hello-world\'s few bytes, so the last column is the service\'s own overhead.',
      'The last two columns are the server process\'s own CPU (user + system, from /proc) per request over the same runs, and the hello-world\'s over this endpoint\'s, the median of the rounds: the capacity share, which load elsewhere on the machine moves less than it moves throughput.',
      'The service is `src/main.js` with `NODE_ENV=production` (no response validation) and its info-level request log written (to /dev/null), SQLite file database.',
      'Target (issue 14): every read endpoint at ≥ 70 % of the bare Express requests per second.',
      '',
      '| endpoint | req/s | latency p50 / p99 | share of bare Express | each round | non-2xx + errors | body bytes | bare Express sending as many bytes (req/s) | share of that | server CPU per request | bare Express\'s CPU per request over this one\'s |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      `| bare Express hello-world | ${fmt(baseline)} | - | 100 % | | 0 | ${helloBytes} | | | ${fmt(helloCpu, 1)} µs | 100 % |`,
      ...figures.map((f) => {
        const { share, sameBytesShare, cpuShare } = shares.get(f.name)!;
        const rounds = roundsOf(f.name);
        return `| ${f.name} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} / ${fmt(f.p99, 1)} ms | ${fmt(100 * share)} % | ${rounds.map((r) => fmt(100 * shareInRound(r))).join(', ')} | ${f.non2xx + f.errors} | ${fmt(per.get(f.name)!.bytes)} | ${fmt(median(rounds.map((r) => r.same.rps)))} | ${fmt(100 * sameBytesShare)} % | ${fmt(f.cpuUs, 1)} µs | ${fmt(100 * cpuShare)} % |`;
      }),
    ].join('\n');
    return { markdown, figures, baseline, shares };
  } finally {
    await service?.stop();
    await hello?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { markdown } = await benchReads();
  writeSection('reads', markdown);
  console.log(markdown);
}
