// The engine's progress counter: a phase says `running` with its counts as requests finish
// and `done` once all are in and its total is final; a listener that throws changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PhaseCounter, type ScanProgress } from '../../src/scanner/progress.ts';

test('a phase counts its requests and is done when the last one settles, failures included', async () => {
  const seen: ScanProgress[] = [];
  const phase = new PhaseCounter((p) => seen.push(p), 'robots', 2);
  await phase.track(Promise.resolve('a'));
  await phase.track(Promise.reject(new Error('refused'))).catch(() => undefined);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(seen.map((p) => [p.status, p.done, p.total]), [['running', 0, 2], ['running', 1, 2], ['done', 2, 2]]);
});

test('a phase whose total is not final yet is not done before it is', () => {
  const seen: ScanProgress[] = [];
  const phase = new PhaseCounter((p) => seen.push(p), 'files', 1, false);
  phase.tick();
  assert.equal(seen.at(-1)!.status, 'running', 'more may still join');
  phase.add(2);
  phase.tick();
  phase.tick();
  assert.deepEqual(seen.at(-1), { phase: 'files', status: 'done', done: 3, total: 3 });
  const none = new PhaseCounter((p) => seen.push(p), 'followups', 0);
  assert.equal(none instanceof PhaseCounter, true);
  assert.deepEqual(seen.at(-1), { phase: 'followups', status: 'done', done: 0, total: 0 }, 'an empty phase is done at once');
});

test('a listener that throws never reaches the scan', async () => {
  const phase = new PhaseCounter(() => { throw new Error('listener broke'); }, 'scoring', 1);
  assert.equal(await phase.track(Promise.resolve(42)), 42);
  phase.tick();
});
