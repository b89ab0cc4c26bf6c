// The per-instance summaries of finished batches (src/batches/summary-cache.ts): a done batch is
// folded once and the same summary served after; a running one is folded on every request (its
// items still finish); the cache stays within its bound, least recently used out first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SummaryCache } from '../../src/batches/summary-cache.ts';
import { findBatch, finishItemDone, insertBatch, type BatchRow } from '../../src/storage/queries/batches.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';

const AT = '2026-06-01T00:00:00.000Z';
let t: TestDb;
before(async () => { t = await openTestDb('sqlite'); });
after(async () => { await t?.close(); });

async function batchWith(status: BatchRow['status']): Promise<BatchRow> {
  const id = randomUUID();
  await insertBatch(t.db, { id, key_id: 'k', label: null, profile: null, status, total: 2, rejected: '[]', charged_day: '2026-06-01', created_at: AT, started_at: AT, finished_at: null }, ['a.cache.com', 'b.cache.com']);
  await finishItemDone(t.db, id, 0, { scanId: randomUUID(), archived: true, headline: 'open', score: 80, confidence: 'high', facts: '{"a":{"GPTBot":[0,1,1]},"v":{},"m":{"GPTBot":"denied"}}', denied: 1 }, AT);
  return (await findBatch(t.db, id))!;
}

test('a done batch is folded once; a running one on every request; the bound holds', async () => {
  const cache = new SummaryCache(t.db, 2);
  const done = await batchWith('done');
  const first = await cache.get(done);
  assert.equal(first.finished, 1);
  await finishItemDone(t.db, done.id, 1, { scanId: randomUUID(), archived: true, headline: 'open', score: 10, confidence: 'high', facts: '{"a":{},"v":{}}' }, AT);
  assert.equal(await cache.get(done), first, 'the same summary, not folded again');
  const running = await batchWith('running');
  assert.equal((await cache.get(running)).finished, 1);
  await finishItemDone(t.db, running.id, 1, { scanId: randomUUID(), archived: true, headline: 'open', score: 10, confidence: 'high', facts: '{"a":{},"v":{}}' }, AT);
  assert.equal((await cache.get(running)).finished, 2, 'a running batch is folded again');
  // Two more done batches push the first (least recently used) out of a cache of two.
  await cache.get(await batchWith('done'));
  await cache.get(await batchWith('done'));
  const again = await cache.get(done);
  assert.notEqual(again, first);
  assert.equal(again.finished, 2, 'folded afresh once evicted');
});
