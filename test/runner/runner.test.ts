// `npm test` fails when anything fails (issue 35 item 2). Each fixture in
// test/fixtures/runner/ reproduces one way a suite went green while red; this runs the real
// runner (scripts/run-tests.ts) on it, as `npm test -- <file>` does, and checks the exit code,
// the failure it shows and the per-file counts it writes. The passing fixture must exit 0, so
// a runner that fails everything cannot pass this test either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/runner');

type Row = { passed: number; failed: number; skipped: number; problem?: string };

const cases: { fixture: string; exit: 0 | 1; shows: RegExp[]; counts: Omit<Row, 'problem'>; problem?: RegExp }[] = [
  { fixture: 'pass', exit: 0, shows: [/^1 passed, 0 failed, 1 skipped$/m, /SKIPPED \(1\)/], counts: { passed: 1, failed: 0, skipped: 1 } },
  { fixture: 'after-hook', exit: 1, shows: [/FIXTURE: describe-level after hook failed/], counts: { passed: 1, failed: 0, skipped: 0 }, problem: /a hook or an error outside any test failed/ },
  // Node runs the tests registered after the await once nothing forces the process to exit.
  { fixture: 'top-level-await', exit: 1, shows: [/FIXTURE: the test after the top-level await ran and failed/], counts: { passed: 1, failed: 1, skipped: 0 }, problem: /1 test\(s\) failed/ },
  { fixture: 'throw-after-last', exit: 1, shows: [/FIXTURE: thrown after the last test/], counts: { passed: 1, failed: 0, skipped: 0 }, problem: /exited with code 1/ },
  { fixture: 'no-test', exit: 1, shows: [], counts: { passed: 0, failed: 0, skipped: 0 }, problem: /registered no test/ },
  { fixture: 'exit-nonzero', exit: 1, shows: [], counts: { passed: 1, failed: 0, skipped: 0 }, problem: /exited with code 3/ },
  // process.exit(0) mid-test: node's own run summary says success; the missing file summary does not.
  { fixture: 'exit-early', exit: 1, shows: [], counts: { passed: 0, failed: 0, skipped: 0 }, problem: /ended without reporting its summary/ },
  { fixture: 'hang', exit: 1, shows: [/still running 5 s after its last test ended; open handles: .*TCPServerWrap/], counts: { passed: 0, failed: 0, skipped: 0 }, problem: /ended without reporting its summary \(exit code 1\)/ },
  // Node reports no exit code for a file whose own tests failed; the missing summary still fails it.
  { fixture: 'hang-before', exit: 1, shows: [/still running 5 s after it started, with no test run yet; open handles: .*TCPServerWrap/, /FIXTURE: before hook failed/], counts: { passed: 0, failed: 0, skipped: 0 }, problem: /ended without reporting its summary/ },
];

function runner(file: string, countsFile: string): Promise<{ code: number | null; out: string }> {
  // NODE_TEST_CONTEXT marks this file's process as a test child; the runner it starts is not one.
  const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/run-tests.ts'), file], {
      cwd: root,
      env: { ...env, TEST_HANG_S: '5', TEST_CONCURRENCY: '1', TEST_COUNTS_FILE: countsFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

for (const c of cases) {
  test(`npm test on the ${c.fixture} fixture exits ${c.exit} and says why`, async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-runner-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(fixtures, `${c.fixture}.fixture.ts`);
    const countsFile = path.join(dir, 'counts.json');
    const { code, out } = await runner(file, countsFile);
    assert.equal(code, c.exit, out);
    for (const re of c.shows) assert.match(out, re);
    const rows = JSON.parse(fs.readFileSync(countsFile, 'utf8')) as Record<string, Row>;
    const { problem, ...counts } = rows[path.relative(root, file)] ?? assert.fail(`no row for the fixture in ${JSON.stringify(rows)}`);
    assert.deepEqual(counts, c.counts);
    if (c.problem) {
      assert.match(problem ?? '', c.problem);
      assert.match(out, /FAILED FILES \(1\):/);
      assert.match(out, /^\d+ passed, [1-9]\d* failed, \d+ skipped$/m, 'a red run never closes with "0 failed"');
    } else assert.equal(problem, undefined);
  });
}

test('npm test refuses a path that matches no test file instead of passing an empty run', async () => {
  const { code, out } = await runner(path.join(root, 'test/no-such-dir/'), path.join(os.tmpdir(), 'ar-runner-unused.json'));
  assert.equal(code, 2, out);
  assert.match(out, /no test file matches/);
});
