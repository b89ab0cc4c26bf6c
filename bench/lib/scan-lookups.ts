// `npm run bench:scan -- --lookups`: what the DNS discovery lookups add to a scan, from paired
// scans in one process (bench/lib/lookups-child.ts): the critical path (sequential scan time),
// CPU per scan one at a time and in bursts of 50 concurrent scans, each as the mean of the paired
// differences with its 95 % confidence interval. Issue 37's line: the critical path does not grow,
// CPU by at most 5 %. Writes its own section of bench/results.md; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './child.ts';
import { describeMachine, nowIso } from './machine.ts';
import { writeSection } from './results.ts';
import { median } from './stats.ts';

const PAIRS = Number(process.env.BENCH_LOOKUP_PAIRS ?? 100);
const ROUNDS = Number(process.env.BENCH_LOOKUP_ROUNDS ?? 30);
const CONCURRENT = Number(process.env.BENCH_LOOKUP_CONCURRENT ?? 50);

interface Side { cpu: number; ms: number }
interface Pair { with: Side; without: Side }

function runChild(worldEnv: Record<string, string>): Promise<{ seq: Pair[]; conc: Pair[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bench/lib/lookups-child.ts'), String(PAIRS), String(ROUNDS), String(CONCURRENT)], {
      cwd: root, env: { ...process.env, ...worldEnv }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`lookups-child exited with ${code}`))));
  });
}

/** Two-sided 95 % quantile of Student's t, by the Cornish-Fisher expansion around z = 1.96: within 1 % from 3 degrees of freedom. */
const t95 = (df: number) => 1.96 + 2.372 / df + 2.823 / df ** 2 + 2.556 / df ** 3;

/** Mean of the paired differences, its 95 % interval, and both relative to the mean without. */
export function pairedChange(pairs: readonly Pair[], pick: (s: Side) => number) {
  const d = pairs.map((p) => pick(p.with) - pick(p.without));
  const base = pairs.reduce((a, p) => a + pick(p.without), 0) / pairs.length;
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1));
  const half = (t95(d.length - 1) * sd) / Math.sqrt(d.length);
  return { base, withMean: base + mean, mean, low: mean - half, high: mean + half, pct: (100 * mean) / base, pctLow: (100 * (mean - half)) / base, pctHigh: (100 * (mean + half)) / base };
}

/** `write: false` (`--no-write`) prints the section and leaves bench/results.md alone (the smoke test). */
export async function measureLookups(worldEnv: Record<string, string>, latencyMs: number, write = true): Promise<void> {
  const { seq, conc } = await runChild(worldEnv);
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  writeFileSync(path.join(root, '.tmp/bench-scan-lookups.json'), `${JSON.stringify({ seq, conc }, null, 1)}\n`);
  const sign = (x: number, d = 1) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`;
  const row = (what: string, c: ReturnType<typeof pairedChange>, unit = 'ms') =>
    `| ${what} | ${c.base.toFixed(1)} ${unit} | ${c.withMean.toFixed(1)} ${unit} | ${sign(c.mean, 2)} ${unit} (${sign(c.low, 2)} to ${sign(c.high, 2)}) | ${sign(c.pct)} % (${sign(c.pctLow)} to ${sign(c.pctHigh)} %) |`;
  const rt = latencyMs + 6;
  const p50 = { without: median(seq.map((p) => p.without.ms)), with: median(seq.map((p) => p.with.ms)) };
  const section = [
    '## The DNS discovery lookups\' own share of a scan (`npm run bench:scan -- --lookups`)',
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end.`,
    `One process, one pair of egresses kept for the run (as the service keeps them), scans of distinct copies of \`open-basic\` with every response delayed ${latencyMs} ms, with and without the five lookups (the world's own DoH resolver) alternating: ${PAIRS} pairs of sequential scans, then ${ROUNDS} pairs of bursts of ${CONCURRENT} concurrent scans; after ${Math.min(12, PAIRS * 2)} warm-up scans and one burst of each. Each change is the mean of the paired differences, with its 95 % confidence interval.`,
    '',
    '| figure | without the lookups (mean) | with them (mean) | change | change, relative |',
    '|---|---|---|---|---|',
    row('scan time, one scan at a time (the critical path)', pairedChange(seq, (s) => s.ms)),
    `| scan time p50, one at a time | ${p50.without.toFixed(0)} ms | ${p50.with.toFixed(0)} ms | ${sign((p50.with - p50.without) / rt)} round trips of ~${rt} ms | |`,
    row('CPU per scan, one at a time', pairedChange(seq, (s) => s.cpu)),
    row(`CPU per scan, ${CONCURRENT} concurrent`, pairedChange(conc, (s) => s.cpu)),
    row(`${CONCURRENT} concurrent scans: wall time`, pairedChange(conc, (s) => s.ms)),
  ].join('\n');
  if (write) writeSection('scan-lookups', section);
  process.stdout.write(`${section}\n`);
}
