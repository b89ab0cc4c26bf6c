// `npm run bench:scan -- --before <dir>`: this tree's scan engine beside another checkout's (the
// code before a change), in one run against one test world: each side in a child process of its
// own (bench/lib/scan-child.ts), the sides interleaved round by round so that a busy moment of
// the machine falls on both. Writes its own section of bench/results.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './child.ts';
import { DEFAULT_CONCURRENCY } from '../../src/scanner/engine.ts';

// Interleaved rounds per side; BENCH_SCAN_ROUNDS raises it where one run's medians move too much
// (on 2 shared CPUs the same tree measured 37-62 ms of CPU per scan across 3-round runs).
const ROUNDS = Number(process.env.BENCH_SCAN_ROUNDS ?? 3);
const RUNS = 15;
const CONCURRENT = 50;

interface Side { times: number[]; cpus: number[]; requests: number; perNetwork: { networkA: number; networkB: number }; wall: number; cpuMs: number; baseRss: number; peakRss: number }

function runChild(tree: string, worldEnv: Record<string, string>, first: number): Promise<Side> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(root, 'bench/lib/scan-child.ts'), tree, String(RUNS), String(CONCURRENT), String(first)], {
      cwd: root, env: { ...process.env, ...worldEnv }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Side) : reject(new Error(`scan-child for ${tree} exited with ${code}`))));
  });
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

export async function compareEngines(beforeTree: string, worldEnv: Record<string, string>, latencyMs: number): Promise<void> {
  const trees = { before: path.resolve(beforeTree), after: root };
  const results: Record<'before' | 'after', Side[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which side goes first; distinct site names per child (no shared connections or sessions).
    const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const [i, side] of order.entries()) results[side].push(await runChild(trees[side], worldEnv, 100_000 * (1 + r * 2 + i)));
  }
  const figures = (side: 'before' | 'after') => {
    const all = results[side];
    return {
      requests: all[0]!.requests,
      perNetwork: all[0]!.perNetwork,
      p50: median(all.flatMap((x) => x.times)),
      p95: pct(all.flatMap((x) => x.times), 95),
      cpuSeq: median(all.flatMap((x) => x.cpus)),
      cpuConcurrent: median(all.map((x) => x.cpuMs / CONCURRENT)),
      wall: median(all.map((x) => x.wall)),
      memPerScan: median(all.map((x) => (x.peakRss - x.baseRss) / CONCURRENT / 2 ** 20)),
    };
  };
  // Every round's raw figures, to read the spread behind the medians (not committed: .tmp/).
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  writeFileSync(path.join(root, '.tmp/bench-scan-compare.json'), `${JSON.stringify({ trees, rounds: ROUNDS, results }, null, 1)}\n`);
  const b = figures('before');
  const a = figures('after');
  const rel = (x: number, y: number) => `${y >= x ? '+' : ''}${(((y - x) / x) * 100).toFixed(1)} %`;
  const f = (n: number, d = 0) => n.toFixed(d);
  const cpus = os.cpus();
  const rt = latencyMs + 6; // one warm request on the world: the latency plus the loopback proxies (bench/scan.ts measures ~56 ms)
  const section = [
    '<!-- bench:scan-compare:start -->',
    '## Scan engine, before and after a change (`npm run bench:scan -- --before <dir>`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}, Node ${process.version}.`,
    `Before: \`${trees.before}\`; after: this tree. Each side in its own process, ${ROUNDS} interleaved rounds of ${RUNS} sequential scans (each of a new site, so cold connections to it; one pair of egresses per side, as the service keeps) and ${CONCURRENT} concurrent scans of distinct copies of \`open-basic\`, every response delayed ${latencyMs} ms.`,
    '',
    '| figure | before | after | change |',
    '|---|---|---|---|',
    `| requests per scan (to the site on networkA + networkB; the rest are DoH lookups to the resolver) | ${b.requests} (${b.perNetwork.networkA} + ${b.perNetwork.networkB}) | ${a.requests} (${a.perNetwork.networkA} + ${a.perNetwork.networkB}) | ${a.requests - b.requests >= 0 ? '+' : ''}${a.requests - b.requests} |`,
    `| waves through the per-network bound of ${DEFAULT_CONCURRENCY} on the busier network, ⌈requests / ${DEFAULT_CONCURRENCY}⌉ | ${Math.ceil(Math.max(b.perNetwork.networkA, b.perNetwork.networkB) / DEFAULT_CONCURRENCY)} | ${Math.ceil(Math.max(a.perNetwork.networkA, a.perNetwork.networkB) / DEFAULT_CONCURRENCY)} | ${Math.ceil(Math.max(a.perNetwork.networkA, a.perNetwork.networkB) / DEFAULT_CONCURRENCY) - Math.ceil(Math.max(b.perNetwork.networkA, b.perNetwork.networkB) / DEFAULT_CONCURRENCY)} |`,
    `| scan time p50 (sequential) | ${f(b.p50)} ms | ${f(a.p50)} ms | ${rel(b.p50, a.p50)}, ${a.p50 - b.p50 >= 0 ? '+' : ''}${f((a.p50 - b.p50) / rt, 1)} round trips of ~${rt} ms |`,
    `| scan time p95 (sequential) | ${f(b.p95)} ms | ${f(a.p95)} ms | ${rel(b.p95, a.p95)} |`,
    `| CPU per scan, sequential (median) | ${f(b.cpuSeq, 1)} ms | ${f(a.cpuSeq, 1)} ms | ${rel(b.cpuSeq, a.cpuSeq)} |`,
    `| CPU per scan, ${CONCURRENT} concurrent (median of rounds) | ${f(b.cpuConcurrent, 1)} ms | ${f(a.cpuConcurrent, 1)} ms | ${rel(b.cpuConcurrent, a.cpuConcurrent)} |`,
    `| ${CONCURRENT} concurrent scans: wall time | ${f(b.wall)} ms | ${f(a.wall)} ms | ${rel(b.wall, a.wall)} |`,
    `| memory per scan in flight (peak RSS − baseline) / ${CONCURRENT} | ${f(b.memPerScan, 2)} MiB | ${f(a.memPerScan, 2)} MiB | ${rel(b.memPerScan, a.memPerScan)} |`,
    '<!-- bench:scan-compare:end -->',
  ].join('\n');
  const file = path.join(root, 'bench/results.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const re = /<!-- bench:scan-compare:start -->[\s\S]*<!-- bench:scan-compare:end -->/;
  writeFileSync(file, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`);
  process.stdout.write(`${section}\n`);
}
