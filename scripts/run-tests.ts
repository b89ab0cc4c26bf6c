// `npm test`: every test/**/*.test.ts through node's test runner (spec reporter), then
// the contract-coverage gate, which must see the whole suite's recorded responses. Ends
// with a list of what was skipped, a list of failed files with the reason, and one plain
// summary line ("N passed, N failed, N skipped"), so a suite that could not run is never
// mistaken for one that passed.
//   npm test                      whole suite
//   npm test -- test/api/         only files under the given paths (no coverage gate)
//   npm test -- some/file.ts      that file, even outside test/**/*.test.ts (runner fixtures)
//
// The verdict is node's own: each file's `test:summary` event (success false when a test, a
// hook at any level, or an error outside any test failed) and the run's. On top of it a file
// fails when its process exits non-zero, when it never reports its summary (it ended before
// its tests did, or hung and scripts/test-guard.ts stopped it), or when it registers no test.
// Per-file counts go to .tmp/test-counts.json so two runs can be compared.
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const hitsDir = path.join(root, '.tmp/contract-hits');
// TEST_COUNTS_FILE: the runner's own test points nested runs elsewhere.
const countsFile = path.resolve(process.env.TEST_COUNTS_FILE ?? path.join(root, '.tmp/test-counts.json'));

function selectFiles(): string[] {
  const all = fs.globSync('test/**/*.test.ts', { cwd: root }).map((f) => path.join(root, f)).sort();
  if (!args.length) return all;
  const picked = new Set<string>();
  for (const arg of args) {
    const abs = path.resolve(arg);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    // An explicit file runs even outside the glob; a directory takes the glob's files inside it
    // (test/mcp/ is not test/mcp-scan/); anything else is a prefix of the glob's paths.
    const prefix = stat?.isDirectory() ? abs + path.sep : abs;
    const hits = stat?.isFile() ? [abs] : all.filter((f) => f.startsWith(prefix));
    if (!hits.length) {
      console.error(`npm test: no test file matches ${arg}`);
      process.exit(2);
    }
    for (const f of hits) picked.add(f);
  }
  return [...picked].sort();
}

type Counts = { tests: number; passed: number; failed: number; cancelled: number; skipped: number; todo: number };
type FileState = { counts?: Counts; success?: boolean; exit?: string; skippedSuites: number };
type FileRow = { passed: number; failed: number; skipped: number; problem?: string };

const states = new Map<string, FileState>();
const skipped: string[] = [];
let runOk = true;

async function phase(list: string[]): Promise<void> {
  for (const f of list) states.set(f, { skippedSuites: 0 });
  const stream = run({
    files: list,
    concurrency: Number(process.env.TEST_CONCURRENCY ?? 2),
    timeout: 10 * 60_000,
    execArgv: ['--import', path.join(root, 'scripts/test-guard.ts')],
  });
  let runSummary = false;
  stream.on('test:summary', (s) => {
    if (s.file === undefined) {
      runSummary = true;
      runOk &&= s.success;
    } else {
      const st = states.get(s.file);
      if (st) Object.assign(st, { counts: s.counts, success: s.success });
    }
  });
  stream.on('test:pass', (t) => {
    if (t.skip === undefined && t.todo === undefined) return;
    // A skipped describe never runs its tests and node's counts leave it out: list it once.
    if (t.details.type === 'suite') {
      const st = states.get(t.file ?? '');
      if (st) st.skippedSuites++;
    }
    skipped.push(`${path.relative(root, t.file ?? '')}: ${t.name}${typeof t.skip === 'string' ? ` (${t.skip})` : ''}`);
  });
  stream.on('test:fail', (t) => {
    // The file-level test: node adds it when the file's process exits non-zero.
    const st = t.nesting === 0 && t.name === t.file ? states.get(t.file ?? '') : undefined;
    const err = t.details.error as { exitCode?: number | null; signal?: string | null };
    if (st) st.exit = err.signal ? `signal ${err.signal}` : `code ${err.exitCode}`;
  });
  stream.compose(spec).pipe(process.stdout);
  await new Promise((resolve) => stream.once('end', resolve));
  if (!runSummary) runOk = false;
}

function row(st: FileState): FileRow {
  const c = st.counts;
  const r: FileRow = c
    ? { passed: c.passed, failed: c.failed + c.cancelled, skipped: c.skipped + c.todo + st.skippedSuites }
    : { passed: 0, failed: 0, skipped: st.skippedSuites };
  if (!c) r.problem = `ended without reporting its summary${st.exit ? ` (exit ${st.exit})` : ''}: it exited before its tests finished, or hung and was stopped`;
  else if (st.exit) r.problem = `its process exited with ${st.exit}`;
  else if (!st.success) r.problem = r.failed ? `${r.failed} test(s) failed` : 'a hook or an error outside any test failed (see above)';
  else if (c.tests === 0 && st.skippedSuites === 0) r.problem = 'registered no test';
  return r;
}

const files = selectFiles();
// Only a whole run starts the coverage gate's record afresh: a path run (the runner's own
// test runs fixtures while the suite records) must not wipe it.
if (!args.length) fs.rmSync(hitsDir, { recursive: true, force: true });
await phase(files);
if (!args.length) await phase([path.join(root, 'test/contract/coverage.check.ts')]);

const rows: Record<string, FileRow> = {};
const total = { passed: 0, failed: 0, skipped: 0 };
for (const [file, st] of states) {
  const r = (rows[path.relative(root, file)] = row(st));
  total.passed += r.passed;
  total.skipped += r.skipped;
  // A file that failed outside its tests counts once, so "0 failed" never closes a red run.
  total.failed += r.failed || (r.problem ? 1 : 0);
}
fs.mkdirSync(path.dirname(countsFile), { recursive: true });
fs.writeFileSync(countsFile, JSON.stringify(rows, null, 2) + '\n');

if (skipped.length) {
  console.log(`\nSKIPPED (${skipped.length}):`);
  for (const s of skipped) console.log(`  - ${s}`);
}
const failedFiles = Object.entries(rows).filter(([, r]) => r.problem);
if (failedFiles.length) {
  console.log(`\nFAILED FILES (${failedFiles.length}):`);
  for (const [f, r] of failedFiles) console.log(`  - ${f}: ${r.problem}`);
}
console.log(`\nper-file counts: ${path.relative(process.cwd(), countsFile) || countsFile}`);
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = runOk && !failedFiles.length && total.passed > 0 ? 0 : 1;
