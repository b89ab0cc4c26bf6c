// The portfolio grid's rows (src/storage/queries/batchGrid.ts) and migration 016's fill of the
// rows finished before it, on SQLite and PostgreSQL: done items most agents denied first, then in
// submission order, rows with no count last, pages by offset without overlap; items not done
// never listed; and old rows (facts without verdicts) get the count of agents their edge denied.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as m016 from '../../src/storage/migrations/016-console.ts';
import { countDone, gridRows } from '../../src/storage/queries/batchGrid.ts';
import { finishItemDone, finishItemFailed, insertBatch, type BatchRow } from '../../src/storage/queries/batches.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

const AT = '2026-06-01T00:00:00.000Z';
const batch = (): BatchRow => ({ id: randomUUID(), key_id: 'k', label: null, profile: null, status: 'running', total: 0, rejected: '[]', charged_day: '2026-06-01', created_at: AT, started_at: AT, finished_at: null });
const done = (denied: number | undefined, facts = '{"a":{},"v":{},"m":{}}') => ({ scanId: randomUUID(), archived: true, headline: 'open', score: 50, confidence: 'high', facts, ...(denied === undefined ? {} : { denied }) });

for (const name of databaseNames()) {
  describe(`portfolio grid rows on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: most denied first, then submission order, no count last; offset pages never overlap; only done items`, async () => {
      const b = batch();
      const denied = [2, 0, 5, undefined, 5, 1, 2, 0];
      await insertBatch(t.db, b, [...denied.map((_, i) => `s${i}.grid-rows.com`), 'failed.grid-rows.com', 'pending.grid-rows.com']);
      for (const [i, d] of denied.entries()) await finishItemDone(t.db, b.id, i, done(d), AT);
      await finishItemFailed(t.db, b.id, denied.length, '{"error":"x"}', AT);
      const all = (await gridRows(t.db, b.id, 0, 100)).map((r) => [r.seq, r.denied]);
      assert.deepEqual(all, [[2, 5], [4, 5], [0, 2], [6, 2], [5, 1], [1, 0], [7, 0], [3, null]]);
      const paged = [...await gridRows(t.db, b.id, 0, 3), ...await gridRows(t.db, b.id, 3, 3), ...await gridRows(t.db, b.id, 6, 3)].map((r) => [r.seq, r.denied]);
      assert.deepEqual(paged, all);
      assert.deepEqual(await gridRows(t.db, b.id, 9, 3), []);
      assert.equal(await countDone(t.db, b.id), 8);
    });

    test(`${name}: migration 016 fills old rows' count from their facts (agents their edge denied); unreadable facts stay null; down and up again`, async () => {
      await m016.down(t.db);
      const b = batch();
      await insertBatch(t.db, b, ['old1.grid-rows.com', 'old2.grid-rows.com', 'old3.grid-rows.com']);
      const old = (a: Record<string, number[]>) => ({ ...done(undefined, JSON.stringify({ a, v: {} })) });
      // Written as the code before 016 wrote them: no denied column at all.
      const write = async (seq: number, facts: string) => t.db('batch_items').where({ batch_id: b.id, seq }).update({ state: 'done', scan_id: randomUUID(), report_archived: true, headline: 'open', score: 1, confidence: 'high', facts, finished_at: AT });
      await write(0, old({ GPTBot: [0, 1, 1], ClaudeBot: [1, 1, 0], CCBot: [0, 0, 1] }).facts);
      await write(1, old({ GPTBot: [0, 0, 1] }).facts);
      await write(2, '{not json');
      await m016.up(t.db);
      const rows = await gridRows(t.db, b.id, 0, 10);
      assert.deepEqual(rows.map((r) => [r.seq, r.denied]), [[0, 2], [1, 0], [2, null]]);
    });
  });
}
