// `npm start` runs the service with V8 heap flags (package.json; bench/results.md says why).
// A Node that drops a flag refuses to start ("bad option"), so check the pinned one accepts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { START_NODE_FLAGS } from '../../bench/lib/child.ts';

test('npm start: its Node flags are the heap settings the benchmarks measured', () => {
  assert.deepEqual(START_NODE_FLAGS, ['--max-semi-space-size=16', '--heap-growing-percent=50']);
});

test('npm start: the pinned Node accepts every flag of the start script', () => {
  const r = spawnSync(process.execPath, [...START_NODE_FLAGS, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, 'ok');
});

test('npm start: a flag the pinned Node does not know stops it (so a dropped flag cannot pass unnoticed)', () => {
  const r = spawnSync(process.execPath, ['--heap-growing-percent-not-a-flag=50', '-e', '0'], { encoding: 'utf8', timeout: 30_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /bad option/);
});
