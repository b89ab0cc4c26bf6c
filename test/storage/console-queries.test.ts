// The partner console's queries (src/storage/queries/console.ts), on SQLite and PostgreSQL: a
// key's batches and watches newest first by keyset, rows created in the same millisecond ordered
// by id, a page never shifted by rows created while paging, another key's rows never seen, each
// list read through its (key_id, created_at, id) index; and the per-page facts (item counts, a
// watch's last run, last change and failing deliveries) read in grouped queries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { insertBatch, finishItemDone, type BatchRow } from '../../src/storage/queries/batches.ts';
import { itemCounts, keyBatches, keyBatchesQuery, keyWatches, keyWatchesQuery, watchFacts, type Keyset } from '../../src/storage/queries/console.ts';
import { insertWatch, type WatchRow } from '../../src/storage/queries/watches.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

const batch = (keyId: string, createdAt: string, id = randomUUID()): BatchRow => ({
  id, key_id: keyId, label: null, profile: null, status: 'queued', total: 2, rejected: '[]', charged_day: createdAt.slice(0, 10), created_at: createdAt, started_at: null, finished_at: null,
});
const watch = (keyId: string | null, createdAt: string, domain: string): WatchRow => ({
  id: randomUUID(), domain, lead_name: 'Ada', lead_email: 'ada@example.com', lead_phone: null, lead_role: null, every: 'day', notify_email: true, webhook_url: null,
  secret_version: 1, threshold: 10, status: 'active', key_id: keyId, created_at: createdAt, confirmed_at: createdAt, ended_at: null, ended_by: null,
});

async function pageAll<T extends { id: string; created_at: string }>(read: (k: Keyset | null) => Promise<T[]>, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let k: Keyset | null = null;
  for (;;) {
    const rows = await read(k);
    seen.push(...rows.slice(0, limit).map((r) => r.id));
    if (rows.length <= limit) return seen;
    const last = rows[limit - 1]!;
    k = { createdAt: last.created_at, id: last.id };
    await between?.();
  }
}

async function plan(t: TestDb, q: { toString(): string }): Promise<string> {
  if (t.name === 'sqlite') return JSON.stringify(await t.db.raw(`explain query plan ${q.toString()}`));
  // A table of a few rows is read whole whatever its indexes; with sequential scans priced out,
  // the planner shows which index the query can use.
  return t.db.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    return JSON.stringify((await trx.raw(`explain ${q.toString()}`)).rows);
  });
}

for (const name of databaseNames()) {
  describe(`console queries on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: a key's batches page newest first, ties by id, unshifted by batches created while paging, others' never seen, through the index`, async () => {
      const times = ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z', '2026-03-05T00:00:00.000Z'];
      const mine = times.map((at) => batch('key-a', at));
      for (const b of mine) await insertBatch(t.db, b, ['a.console-rows.com', 'b.console-rows.com']);
      await insertBatch(t.db, batch('key-b', '2026-03-03T00:00:00.000Z'), ['c.console-rows.com']);
      const expected = [...mine].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1)).map((b) => b.id);
      let added = 0;
      const seen = await pageAll((k) => keyBatches(t.db, 'key-a', k, 4), 3, async () => {
        await insertBatch(t.db, batch('key-a', `2026-04-0${++added}T00:00:00.000Z`), ['d.console-rows.com']);
      });
      assert.deepEqual(seen, expected, 'every batch once, in order, none of key-b, none created while paging');
      assert.match(await plan(t, keyBatchesQuery(t.db, 'key-a', { createdAt: times[3]!, id: mine[3]!.id }, 4)), /batches_key_created/);
      const counts = await itemCounts(t.db, [mine[0]!.id, mine[1]!.id, randomUUID()]);
      await finishItemDone(t.db, mine[1]!.id, 0, { scanId: randomUUID(), archived: true, headline: 'open', score: 90, confidence: 'high', facts: '{"a":{},"v":{}}' }, times[1]!);
      const after1 = await itemCounts(t.db, [mine[1]!.id]);
      assert.deepEqual(counts.get(mine[0]!.id), { byState: { pending: 2 }, byHeadline: {} });
      assert.deepEqual(after1.get(mine[1]!.id), { byState: { pending: 1, done: 1 }, byHeadline: { open: 1 } });
      assert.equal(counts.size, 3, 'an id with no items reads as no counts');
    });

    test(`${name}: a key's watches page the same way; each with its newest run, its last change and its failing deliveries`, async () => {
      const ws = ['2026-05-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z', '2026-05-02T00:00:00.000Z'].map((at, i) => watch('key-w', at, `w${i}.console-rows.com`));
      for (const w of ws) await insertWatch(t.db, w);
      await insertWatch(t.db, watch(null, '2026-05-03T00:00:00.000Z', 'nokey.console-rows.com'));
      const expected = [...ws].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1)).map((w) => w.id);
      assert.deepEqual(await pageAll((k) => keyWatches(t.db, 'key-w', k, 2), 1), expected);
      assert.match(await plan(t, keyWatchesQuery(t.db, 'key-w', null, 2)), /watches_key_created/);
      const [w0, w1] = ws as [WatchRow, WatchRow, WatchRow];
      const run = (period: number, state: string, changes: string | null, finished: string | null) => ({
        watch_id: w0.id, period, state, charged: true, scan_id: randomUUID(), headline: 'open', score: 80, changes, started_at: '2026-05-01T00:00:00.000Z', finished_at: finished,
      });
      await t.db('watch_runs').insert([run(0, 'done', '[]', '2026-05-01T01:00:00.000Z'), run(1, 'done', '[{"kind":"score","text":"x"}]', '2026-05-02T01:00:00.000Z'), run(2, 'done', '[]', '2026-05-03T01:00:00.000Z'), run(3, 'running', null, null)]);
      const delivery = (status: string, attempts: number) => ({
        id: randomUUID(), watch_id: w0.id, event_id: randomUUID(), type: 'readiness.changed', url: 'https://hooks.console-rows.com/', secret_version: 1, body: '{}', status, attempts, created_at: '2026-05-02T01:00:00.000Z',
      });
      await t.db('webhook_deliveries').insert([delivery('failed', 8), delivery('pending', 2), delivery('pending', 0), delivery('delivered', 1)]);
      const facts = await watchFacts(t.db, [w0.id, w1.id]);
      const f0 = facts.get(w0.id)!;
      assert.deepEqual([f0.lastRun?.period, f0.lastRun?.state, f0.lastChangeAt, f0.failing], [3, 'running', '2026-05-02T01:00:00.000Z', 2]);
      assert.deepEqual(facts.get(w1.id), { lastRun: null, lastChangeAt: null, failing: 0 });
    });
  });
}
