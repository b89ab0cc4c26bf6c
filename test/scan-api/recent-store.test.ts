// The in-process store of just-completed scans (coalescing without Redis): a result is served
// for the window, and the store never holds more than its bound, however fast scans finish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryRecentStore } from '../../src/scans/coalesce.ts';

const done = (n: number) => ({ body: { n }, completedAtMs: 0 });

test('recent store: a result is served within its window and not after', async () => {
  let now = 1_000;
  const store = memoryRecentStore(() => now);
  await store.put('a', done(1), 45_000);
  now += 44_000;
  assert.deepEqual((await store.get('a'))?.body, { n: 1 });
  now += 2_000;
  assert.equal(await store.get('a'), null);
});

test('recent store: past its bound the least recently used result goes first', async () => {
  const store = memoryRecentStore(() => 0, 3);
  for (const k of ['a', 'b', 'c']) await store.put(k, done(1), 45_000);
  assert.ok(await store.get('a'), 'a is used again, so b is now the oldest');
  await store.put('d', done(1), 45_000);
  assert.deepEqual(await Promise.all(['a', 'b', 'c', 'd'].map(async (k) => (await store.get(k)) !== null)), [true, false, true, true]);
});

test('recent store: a window of 0 keeps nothing', async () => {
  const store = memoryRecentStore(() => 0);
  await store.put('a', done(1), 0);
  assert.equal(await store.get('a'), null);
});
