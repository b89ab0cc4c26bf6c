// Batch and item rows (migration 009), on SQLite and PostgreSQL: items written in submission
// order in chunks, finished once (a second finish, done or failed, changes nothing), a cancel
// takes only what has not started, counts and pages read from the items, the batch done once
// no item is open, and the resume at start pages through open items of unfinished batches only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  cancelBatch, countItems, deleteBatch, findBatch, findItem, finishIfDone, finishItemDone, finishItemFailed, insertBatch,
  markItemRunning, markStarted, pageItems, pendingItems, type BatchRow, type ItemResult,
} from '../../src/storage/queries/batches.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

const AT = '2026-01-02T03:04:05.000Z';

function batch(over: Partial<BatchRow> = {}): BatchRow {
  return {
    id: randomUUID(), key_id: 'key-1', label: 'portfolio ✓', profile: null, status: 'queued', total: 0, rejected: '[]',
    charged_day: '2026-01-02', created_at: AT, started_at: null, finished_at: null, ...over,
  };
}

const result = (headline: string, score: number | null): ItemResult => ({ scanId: randomUUID(), archived: true, headline, score, confidence: 'high', facts: '{"agents":[]}' });

for (const name of databaseNames()) {
  describe(`batch rows on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: 1,203 items are written in order across insert chunks and paged back in order`, async () => {
      const b = batch({ total: 1203 });
      const domains = Array.from({ length: 1203 }, (_, i) => `s${i}.batch-rows.com`);
      await insertBatch(t.db, b, domains);
      const found = (await findBatch(t.db, b.id))!;
      assert.deepEqual({ ...found, total: Number(found.total) }, { ...b, links_version: 1 }, "the links start at version 1");
      const seen: string[] = [];
      let after = -1;
      for (;;) {
        const page = await pageItems(t.db, b.id, after, 500);
        seen.push(...page.map((i) => i.domain));
        if (page.length < 500) break;
        after = Number(page.at(-1)!.seq);
      }
      assert.deepEqual(seen, domains);
      assert.deepEqual(await countItems(t.db, b.id), { byState: { pending: 1203 }, byHeadline: {} });
    });

    test(`${name}: an item finishes once; a second finish (done or failed) changes nothing`, async () => {
      const b = batch({ total: 2 });
      await insertBatch(t.db, b, ['a.batch-rows.com', 'b.batch-rows.com']);
      await markStarted(t.db, b.id, AT);
      await markStarted(t.db, b.id, '2030-01-01T00:00:00.000Z');
      assert.deepEqual([(await findBatch(t.db, b.id))!.status, (await findBatch(t.db, b.id))!.started_at], ['running', AT], 'started once');
      await markItemRunning(t.db, b.id, 0);
      const first = result('open', 91);
      assert.equal(await finishItemDone(t.db, b.id, 0, first, AT), true);
      assert.equal(await finishItemDone(t.db, b.id, 0, result('agent-hostile', 3), AT), false);
      assert.equal(await finishItemFailed(t.db, b.id, 0, '{"error":"late"}', AT), false);
      const item = (await findItem(t.db, b.id, 0))!;
      assert.deepEqual([item.state, item.scan_id, item.headline, Number(item.score), Boolean(item.report_archived), item.error], ['done', first.scanId, 'open', 91, true, null]);
      assert.equal(await finishIfDone(t.db, b.id, AT), false, 'one item still open');
      assert.equal(await finishItemFailed(t.db, b.id, 1, '{"error":"The domain does not resolve."}', AT), true);
      assert.equal(await finishItemDone(t.db, b.id, 1, result('open', 50), AT), false);
      assert.equal(await finishIfDone(t.db, b.id, AT), true);
      assert.equal(await finishIfDone(t.db, b.id, AT), false, 'done once');
      assert.deepEqual(await countItems(t.db, b.id), { byState: { done: 1, failed: 1 }, byHeadline: { open: 1 } });
    });

    test(`${name}: cancel takes the pending items only; a running item stays open and can still finish, once`, async () => {
      const b = batch({ total: 3 });
      await insertBatch(t.db, b, ['c0.batch-rows.com', 'c1.batch-rows.com', 'c2.batch-rows.com']);
      await markItemRunning(t.db, b.id, 0);
      assert.deepEqual(await cancelBatch(t.db, b.id, AT), [1, 2]);
      assert.deepEqual(await cancelBatch(t.db, b.id, AT), [], 'nothing left to cancel');
      assert.equal((await findBatch(t.db, b.id))!.status, 'cancelled');
      assert.equal(await finishItemDone(t.db, b.id, 1, result('open', 1), AT), false, 'a cancelled item is never finished');
      assert.equal(await finishItemDone(t.db, b.id, 0, result('open', 80), AT), true, 'the running one finishes');
      assert.equal(await finishIfDone(t.db, b.id, AT), false, 'a cancelled batch stays cancelled');
      assert.deepEqual(await countItems(t.db, b.id), { byState: { done: 1, cancelled: 2 }, byHeadline: { open: 1 } });
    });

    test(`${name}: the resume pages through open items of unfinished batches only, across batches`, async () => {
      await t.db('batch_items').delete();
      await t.db('batches').delete();
      const [x, y, z] = [batch({ id: `a${randomUUID().slice(1)}` }), batch({ id: `b${randomUUID().slice(1)}` }), batch({ id: `c${randomUUID().slice(1)}`, profile: 'docs' })];
      await insertBatch(t.db, x, ['x0.batch-rows.com', 'x1.batch-rows.com', 'x2.batch-rows.com']);
      await insertBatch(t.db, y, ['y0.batch-rows.com']);
      await insertBatch(t.db, z, ['z0.batch-rows.com', 'z1.batch-rows.com']);
      await finishItemDone(t.db, x.id, 1, result('open', 1), AT);
      await markItemRunning(t.db, x.id, 2);
      await cancelBatch(t.db, y.id, AT);
      const pages: string[][] = [];
      let after = { batch: '', seq: -1 };
      for (;;) {
        const page = await pendingItems(t.db, after.batch, after.seq, 2);
        if (!page.length) break;
        pages.push(page.map((p) => `${p.batch_id.slice(0, 1)}${p.seq}${p.profile ?? ''}`));
        after = { batch: page.at(-1)!.batch_id, seq: Number(page.at(-1)!.seq) };
      }
      assert.deepEqual(pages, [['a0', 'a2'], ['c0docs', 'c1docs']]);
    });

    test(`${name}: deleting a batch (a failed enqueue) takes its items with it`, async () => {
      const b = batch({ total: 2 });
      await insertBatch(t.db, b, ['d0.batch-rows.com', 'd1.batch-rows.com']);
      await deleteBatch(t.db, b.id);
      assert.equal(await findBatch(t.db, b.id), undefined);
      assert.deepEqual(await pageItems(t.db, b.id, -1, 10), []);
    });
  });
}
