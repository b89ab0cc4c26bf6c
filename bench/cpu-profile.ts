// Where a scan's service CPU goes, from V8 --cpu-prof profiles of the service under the
// 100-scan burst: self time by category, per scan. The profile also holds start-up and the
// warm-up scan, so a second service that runs only those (a burst of 0) is profiled too and
// subtracted. `BENCH_CPU_LABEL=before` writes the figures of the checkout it runs in to
// bench/cpu-profile-<label>.json, so a later run on another commit can print both side by
// side. Asserts nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBurst } from './concurrent-scans.ts';
import { START_NODE_FLAGS } from './lib/child.ts';
import { perfShares, perfUnavailable, samplePid } from './lib/perf.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt } from './lib/stats.ts';

interface Node { id: number; callFrame: { functionName: string; url: string }; children?: number[] }

/** Ordered: the first rule a frame matches names its category. */
const CATEGORIES: Array<[name: string, test: (fn: string, url: string) => boolean]> = [
  ['idle', (fn) => fn === '(idle)'],
  ['garbage collection', (fn) => fn === '(garbage collector)'],
  ['TLS (handshakes, encryption, certificate checks)', (fn, url) => url.startsWith('node:internal/tls') || fn === 'writeLatin1String' || fn === 'writeUtf8String' || fn === 'writev' || fn === 'getPeerCertificate'],
  ['sockets and streams (Node)', (_fn, url) => /^node:(net|internal\/(streams|stream_base_commons|net|dns))/.test(url)],
  ['HTTP client (undici, llhttp)', (_fn, url) => url.includes('node_modules/undici/') || url.startsWith('wasm://')],
  ['fingerprints and classification', (_fn, url) => /src\/scanner\/(fingerprints|classify|payment)\.ts/.test(url)],
  ['page parsing (htmlparser2)', (_fn, url) => url.includes('node_modules/htmlparser2/') || url.includes('node_modules/entities/') || url.includes('src/scanner/page.ts')],
  ['rest of the scanner (evidence, checks, rubric, matrix)', (_fn, url) => url.includes('/src/scanner/') || url.includes('/src/signing/')],
  ['egress, guard, resolver (src/net)', (_fn, url) => url.includes('/src/net/')],
  ['storage (knex, SQLite)', (_fn, url) => url.includes('node_modules/knex/') || url.includes('better-sqlite3') || url.includes('/src/storage/')],
  ['HTTP server, validation, scan service', (_fn, url) => /node_modules\/(express|router|ajv|express-openapi-validator|body-parser|raw-body|path-to-regexp)/.test(url) || /\/src\/(app|handlers|http|scans|server)/.test(url) || url.startsWith('node:_http') || url.startsWith('node:http')],
  ['crypto (hashes, signatures)', (_fn, url) => url.startsWith('node:internal/crypto') || url.includes('http-message-signatures') || url.includes('structured-headers')],
  ['module loading and compilation', (_fn, url) => url.startsWith('node:internal/modules') || url.includes('amaro') || url.startsWith('node:internal/bootstrap')],
  ['timers, promises, events', (fn, url) => /^node:(internal\/(timers|process\/task_queues|event_target|abort_controller)|events|timers)/.test(url) || fn === 'runMicrotasks'],
  ['other', () => true],
];

function categorise(file: string): Map<string, number> {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>(CATEGORIES.map(([c]) => [c, 0]));
  prof.samples.forEach((id, i) => {
    const cf = byId.get(id)!.callFrame;
    const cat = CATEGORIES.find(([, t]) => t(cf.functionName, cf.url))![0];
    out.set(cat, out.get(cat)! + (prof.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

async function profiled(scans: number): Promise<Map<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cpuprof-'));
  try {
    await measureBurst(scans, { nodeArgs: [...START_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`] });
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the service wrote no profile');
    return categorise(path.join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same burst under Linux perf (bench/lib/perf.ts): each component's share of the samples,
 * times the service CPU the burst used, per scan. Null, with the reason, where perf cannot run.
 */
async function sampled(scans: number): Promise<{ perScan: Map<string, number>; cpuMs: number } | { skipped: string }> {
  const why = perfUnavailable();
  if (why) return { skipped: why };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-perf-'));
  const file = path.join(dir, 'perf.data');
  let pid: number | undefined;
  try {
    // --perf-basic-prof names JIT code for perf, so compiled JavaScript is told from V8's own code.
    const b = await measureBurst(scans, { nodeArgs: [...START_NODE_FLAGS, '--perf-basic-prof'], watch: (p) => samplePid((pid = p), file) });
    const cpuMs = (1000 * b.cpu.service) / scans;
    const shares = perfShares(file);
    return { perScan: new Map([...shares].map(([k, v]) => [k, v * cpuMs])), cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pid !== undefined) rmSync(path.join(os.tmpdir(), `perf-${pid}.map`), { force: true }); // written by --perf-basic-prof
  }
}

/** The same burst without the profiler: service CPU per scan and TLS connections per scan. */
async function plain(scans: number): Promise<{ cpuMs: number; tlsPerScan: number; resumedPerScan: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-tls-'));
  const countFile = path.join(dir, 'count');
  process.env.BENCH_TLS_COUNT_FILE = countFile;
  try {
    const b = await measureBurst(scans, { nodeArgs: [...START_NODE_FLAGS, '--import', fileURLToPath(new URL('./lib/count-tls.mjs', import.meta.url))] });
    const counts = existsSync(countFile) ? (JSON.parse(readFileSync(countFile, 'utf8')) as { connects: number; resumed: number }) : { connects: NaN, resumed: NaN };
    // + the warm-up scan
    return { cpuMs: (1000 * b.cpu.service) / scans, tlsPerScan: counts.connects / (scans + 1), resumedPerScan: counts.resumed / (scans + 1) };
  } finally {
    delete process.env.BENCH_TLS_COUNT_FILE;
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCpuProfile(scans = Number(process.env.BENCH_SCANS ?? 100)): Promise<{ markdown: string; perScan: Record<string, number> }> {
  const base = await profiled(0);
  const burst = await profiled(scans);
  const perScan: Record<string, number> = {};
  for (const [c] of CATEGORIES) if (c !== 'idle') perScan[c] = Math.max(0, (burst.get(c)! - base.get(c)!) / scans);
  const runs = [await plain(scans), await plain(scans)];
  const cpuMs = Math.min(...runs.map((r) => r.cpuMs));
  const tlsPerScan = Math.min(...runs.map((r) => r.tlsPerScan));
  const resumedPerScan = Math.min(...runs.map((r) => r.resumedPerScan));
  const whole = await sampled(scans);
  const perf = 'skipped' in whole ? undefined : { perScan: Object.fromEntries(whole.perScan), cpuMs: whole.cpuMs };
  const label = process.env.BENCH_CPU_LABEL;
  if (label) writeFileSync(new URL(`./cpu-profile-${label}.json`, import.meta.url), `${JSON.stringify({ measured: nowIso(), machine: describeMachine(), perScan, cpuMs, tlsPerScan, resumedPerScan, perf }, null, 1)}\n`);
  const beforeFile = new URL('./cpu-profile-before.json', import.meta.url);
  const before = label !== 'before' && existsSync(beforeFile) ? (JSON.parse(readFileSync(beforeFile, 'utf8')) as Measured) : null;
  const total = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
  const rows = Object.keys(perScan).map((c) => `| ${c} | ${before ? `${fmt(before.perScan[c] ?? 0, 1)} ms | ` : ''}${fmt(perScan[c]!, 1)} ms |`);
  const markdown = [
    '## Where a scan\'s service CPU goes (`node bench/cpu-profile.ts`)',
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}.`,
    `Self time by category in a V8 --cpu-prof profile of the service during ${scans} concurrent scans of \`open-basic\` (74 requests each), minus a profile of start-up and the warm-up scan alone, divided by ${scans}. The profiler slows the service, which changes how many sites overlap and so how often connections were lost before this work: the profiled "before" understates it. The last rows come from the same burst without the profiler.`,
    before ? `"Before" is \`bench/cpu-profile-before.json\`, measured ${before.measured} by the same script on the commit before this work (3f6ebae), on ${before.machine ?? 'an earlier machine'}: compare it with this run only when the two machines match (rerun it with \`BENCH_CPU_LABEL=before\` in a checkout of 3f6ebae to compare on another).` : '',
    '',
    `| category | ${before ? 'before | ' : ''}per scan |`,
    `|---|${before ? '---|' : ''}---|`,
    ...rows,
    `| **total under the profiler** | ${before ? `**${fmt(total(before.perScan), 1)} ms** | ` : ''}**${fmt(total(perScan), 1)} ms** |`,
    `| service CPU per scan without the profiler (better of two bursts) | ${before ? `${fmt(before.cpuMs, 1)} ms | ` : ''}${fmt(cpuMs, 1)} ms |`,
    `| TLS connections opened per scan (74 requests) | ${before ? `${fmt(before.tlsPerScan, 1)} | ` : ''}${fmt(tlsPerScan, 1)} |`,
    `| of which resumed a TLS session (no certificate chain sent or verified) | ${before ? `${before.resumedPerScan === undefined ? 'not counted' : fmt(before.resumedPerScan, 1)} | ` : ''}${fmt(resumedPerScan, 1)} |`,
  ].filter((l) => l !== '').join('\n').replace('\n| category', '\n\n| category');
  return { markdown: `${markdown}\n\n${perfTable(whole, before?.perf)}`, perScan };
}

interface Measured {
  measured: string; machine?: string; perScan: Record<string, number>; cpuMs: number; tlsPerScan: number; resumedPerScan?: number;
  perf?: { perScan: Record<string, number>; cpuMs: number };
}

/** The whole process under perf, beside the "before" commit's when it was measured the same way. */
function perfTable(whole: Awaited<ReturnType<typeof sampled>>, before: Measured['perf']): string {
  const head = [
    'The whole process, every thread and the kernel, from a third burst sampled by Linux perf (`bench/lib/perf.ts`, cpu-clock at 999 Hz, JIT code named by `--perf-basic-prof`): each component\'s share of the samples times the CPU the service used in that burst. The V8 profile above sees only JavaScript and the native calls it makes on the main thread; this table also shows the kernel\'s socket work, V8\'s collector threads and OpenSSL. Components are told apart by library and symbol name: the plain C symbols of the node binary are its statically linked OpenSSL.',
  ];
  if ('skipped' in whole) return [...head, '', `**Not measured in this run: ${whole.skipped}.**`].join('\n');
  const names = [...whole.perScan.keys()];
  return [
    ...head,
    before ? '"Before" is the same measurement on 3f6ebae, from `bench/cpu-profile-before.json`.' : '"Before" was not measured this way (`bench/cpu-profile-before.json` has no perf figures): rerun it with `BENCH_CPU_LABEL=before` in a checkout of 3f6ebae.',
    '',
    `| component (perf) | ${before ? 'before | ' : ''}per scan | share |`,
    `|---|${before ? '---|' : ''}---|---|`,
    ...names.map((n) => `| ${n} | ${before ? `${fmt(before.perScan[n] ?? 0, 1)} ms | ` : ''}${fmt(whole.perScan.get(n)!, 1)} ms | ${fmt((100 * whole.perScan.get(n)!) / whole.cpuMs)} % |`),
    `| **service CPU per scan in the sampled burst** | ${before ? `**${fmt(before.cpuMs, 1)} ms** | ` : ''}**${fmt(whole.cpuMs, 1)} ms** | 100 % |`,
  ].join('\n');
}

if (import.meta.main) {
  const { markdown } = await benchCpuProfile();
  if (process.env.BENCH_CPU_LABEL !== 'before') writeSection('cpu-profile', markdown);
  console.log(markdown);
}
