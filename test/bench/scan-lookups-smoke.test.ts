// `npm run bench:scan -- --lookups` runs end to end at a tiny size: every row it reports carries
// a figure and an interval (no figure is asserted: they belong to the bench), and --no-write leaves
// bench/results.md alone. The paired statistics are checked on numbers worked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pairedChange } from '../../bench/lib/scan-lookups.ts';

const root = path.resolve(import.meta.dirname, '../..');

test('pairedChange: the mean of the paired differences, a 95 % interval from their spread, relative to the mean without', () => {
  const side = (cpu: number) => ({ cpu, ms: 0 });
  // Differences 1, 3, 2, 2: mean 2, sd √(2/3); base (10 + 10 + 12 + 8) / 4 = 10.
  const pairs = [[11, 10], [13, 10], [14, 12], [10, 8]].map(([w, wo]) => ({ with: side(w!), without: side(wo!) }));
  const c = pairedChange(pairs, (s) => s.cpu);
  assert.equal(c.base, 10);
  assert.equal(c.mean, 2);
  assert.equal(c.pct, 20);
  // t(0.975, 3) = 3.182; our approximation is within 1 % of it at 3 degrees of freedom.
  const half = (3.182 * Math.sqrt(2 / 3)) / 2;
  assert.ok(Math.abs(c.high - c.mean - half) / half < 0.01, `${c.high - c.mean} against ${half}`);
  assert.equal(c.mean - c.low, c.high - c.mean);
});

test('bench:scan --lookups at a tiny size reports every row and writes nothing', { timeout: 600_000 }, async () => {
  const results = readFileSync(path.join(root, 'bench/results.md'), 'utf8');
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/scan.ts', '--lookups', '--no-write'], {
    cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 580_000,
    env: { ...process.env, BENCH_LOOKUP_PAIRS: '3', BENCH_LOOKUP_ROUNDS: '2', BENCH_LOOKUP_CONCURRENT: '4' },
  });
  const interval = String.raw`[+−][\d.]+ ms \([+−][\d.]+ to [+−][\d.]+\) \| [+−][\d.]+ % \([+−][\d.]+ to [+−][\d.]+ %\)`;
  for (const row of [
    new RegExp(String.raw`\| scan time, one scan at a time \(the critical path\) \| [\d.]+ ms \| [\d.]+ ms \| ${interval} \|`),
    /\| scan time p50, one at a time \| \d+ ms \| \d+ ms \| [+−][\d.]+ round trips of ~56 ms \|/,
    new RegExp(String.raw`\| CPU per scan, one at a time \| [\d.]+ ms \| [\d.]+ ms \| ${interval} \|`),
    new RegExp(String.raw`\| CPU per scan, 4 concurrent \| [\d.]+ ms \| [\d.]+ ms \| ${interval} \|`),
    /3 pairs of sequential scans, then 2 pairs of bursts of 4 concurrent scans/,
  ]) assert.match(stdout, row);
  assert.equal(readFileSync(path.join(root, 'bench/results.md'), 'utf8'), results, '--no-write left bench/results.md alone');
});
