// `node scripts/compare-test-counts.ts A.json B.json`: compares the per-file counts two runs
// of `npm test` wrote (.tmp/test-counts.json). Prints every file whose counts differ, or that
// only one run has, and exits 1 if any does: the count of tests run must be stable from run to
// run on the same commit.
import fs from 'node:fs';

type Row = { passed: number; failed: number; skipped: number; problem?: string };
const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node scripts/compare-test-counts.ts A.json B.json');
  process.exit(2);
}
const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, Row>;
const left = read(a);
const right = read(b);
const show = (r: Row | undefined) => (r ? `${r.passed}/${r.failed}/${r.skipped}${r.problem ? ` (${r.problem})` : ''}` : 'absent');
const diffs = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort().filter((f) => show(left[f]) !== show(right[f]));
const total = (rows: Record<string, Row>) => Object.values(rows).reduce((n, r) => n + r.passed + r.failed + r.skipped, 0);
for (const f of diffs) console.log(`${f}: ${show(left[f])} vs ${show(right[f])} (passed/failed/skipped)`);
console.log(`${Object.keys(left).length} vs ${Object.keys(right).length} files, ${total(left)} vs ${total(right)} tests; ${diffs.length} file(s) differ`);
process.exitCode = diffs.length ? 1 : 0;
