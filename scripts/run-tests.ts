// `npm test`: every test/**/*.test.ts through node's test runner (spec reporter), then
// the contract-coverage gate, which must see the whole suite's recorded responses. Ends
// with one plain summary line ("N passed, N failed, N skipped") and a list of what was
// skipped, so a suite that could not run is never mistaken for one that passed.
//   npm test                      whole suite
//   npm test -- test/api/         only files under the given paths (no coverage gate)
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const root = path.resolve(import.meta.dirname, '..');
const filters = process.argv.slice(2).map((f) => path.resolve(f));
const hitsDir = path.join(root, '.tmp/contract-hits');

const all = fs.globSync('test/**/*.test.ts', { cwd: root }).map((f) => path.join(root, f)).sort();
const files = filters.length ? all.filter((f) => filters.some((p) => f.startsWith(p))) : all;
const counts = { passed: 0, failed: 0, skipped: 0 };
const skipped: string[] = [];

async function phase(list: string[]): Promise<void> {
  // forceExit: a file whose tests have all ended exits even if something it opened is still
  // alive. Without it one leaked listener (a failed assertion before a server's close) held
  // its process, and so the whole run, open past CI's 90 minutes: the per-test timeout ends
  // tests, not processes.
  const stream = run({ files: list, concurrency: Number(process.env.TEST_CONCURRENCY ?? 2), timeout: 10 * 60_000, forceExit: true });
  stream.on('test:pass', (t) => {
    const skippedHere = t.skip !== undefined || t.todo !== undefined;
    // A skipped describe never runs its tests; count it once so the summary shows it.
    if (t.details.type === 'suite' && !skippedHere) return;
    if (skippedHere) {
      counts.skipped++;
      skipped.push(`${path.relative(root, t.file ?? '')}: ${t.name}${typeof t.skip === 'string' ? ` (${t.skip})` : ''}`);
    } else counts.passed++;
  });
  stream.on('test:fail', (t) => {
    if (t.details.type !== 'suite') counts.failed++;
  });
  stream.compose(spec).pipe(process.stdout);
  await new Promise((resolve) => stream.once('end', resolve));
}

fs.rmSync(hitsDir, { recursive: true, force: true });
await phase(files);
if (!filters.length) await phase([path.join(root, 'test/contract/coverage.check.ts')]);
if (skipped.length) {
  console.log(`\nSKIPPED (${skipped.length}):`);
  for (const s of skipped) console.log(`  - ${s}`);
}
console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exitCode = counts.failed > 0 || counts.passed === 0 ? 1 : 0;
