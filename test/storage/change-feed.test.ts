// The change feed's rows (migration 014, src/storage/queries/changeFeed.ts) on SQLite and
// PostgreSQL: seqs in append order, one row per event id, a key's page apart from others',
// pages bounded by the head, retention deleting a prefix and recording how far. On PostgreSQL,
// the commit-order case: a writer that took its seq and has not committed holds the next writer
// back, so a reader never sees a later seq before an earlier one (the gap an auto-increment id
// leaves when transactions commit out of order).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendChange, changesAfter, feedState, pruneChanges, type NewChange } from '../../src/storage/queries/changeFeed.ts';
import { until } from '../watches/fakes.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

function change(key: string, at = '2026-03-01T00:00:00.000Z'): NewChange {
  const id = `evt-${randomUUID()}.1`;
  return { event_id: id, key_id: key, watch_id: randomUUID(), body: JSON.stringify({ id, type: 'readiness.changed', note: 'bücher ✓' }), created_at: at };
}

for (const name of databaseNames()) {
  describe(`change feed rows on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: seqs rise in append order; a repeated event id keeps its first row and seq`, async () => {
      const start = (await feedState(t.db)).head;
      const a = change('key-a');
      const s1 = await appendChange(t.db, a);
      const s2 = await appendChange(t.db, change('key-a'));
      assert.ok(s1 > start && s2 > s1);
      assert.equal(await appendChange(t.db, { ...a, body: '{}' }), s1);
      assert.equal((await t.db('change_events').where({ event_id: a.event_id })).length, 1);
      const head = (await feedState(t.db)).head;
      assert.ok(head >= s2);
      const rows = await changesAfter(t.db, { keyId: 'key-a', after: start, through: head, limit: 10 });
      assert.deepEqual(rows.map((r) => r.seq), [s1, s2]);
      assert.equal(JSON.parse(rows[0]!.body).note, 'bücher ✓');
    });

    test(`${name}: a key reads its own rows only, up to the head and the limit; null reads all keys`, async () => {
      const from = (await feedState(t.db)).head;
      const x1 = await appendChange(t.db, change('key-x'));
      const y1 = await appendChange(t.db, change('key-y'));
      const x2 = await appendChange(t.db, change('key-x'));
      const head = (await feedState(t.db)).head;
      assert.deepEqual((await changesAfter(t.db, { keyId: 'key-x', after: from, through: head, limit: 10 })).map((r) => r.seq), [x1, x2]);
      assert.deepEqual((await changesAfter(t.db, { keyId: 'key-x', after: from, through: head, limit: 1 })).map((r) => r.seq), [x1]);
      assert.deepEqual((await changesAfter(t.db, { keyId: 'key-x', after: x1, through: head, limit: 10 })).map((r) => r.seq), [x2]);
      assert.deepEqual((await changesAfter(t.db, { keyId: 'key-x', after: from, through: y1, limit: 10 })).map((r) => r.seq), [x1], 'nothing past `through`');
      assert.deepEqual((await changesAfter(t.db, { keyId: null, after: from, through: head, limit: 10 })).map((r) => r.seq), [x1, y1, x2]);
    });

    test(`${name}: retention deletes the prefix created before the cutoff and records how far`, async () => {
      const old1 = await appendChange(t.db, change('key-p', '2026-01-01T00:00:00.000Z'));
      const old2 = await appendChange(t.db, change('key-p', '2026-01-02T00:00:00.000Z'));
      const kept = await appendChange(t.db, change('key-p', '2026-02-15T00:00:00.000Z'));
      const deleted = await pruneChanges(t.db, '2026-02-01T00:00:00.000Z');
      assert.ok(deleted >= 2);
      const state = await feedState(t.db);
      assert.equal(state.prunedThrough, old2);
      assert.deepEqual((await changesAfter(t.db, { keyId: 'key-p', after: 0, through: state.head, limit: 10 })).map((r) => r.seq), [kept]);
      assert.ok(old1 < old2);
      assert.equal(await pruneChanges(t.db, '2026-02-01T00:00:00.000Z'), 0, 'nothing more to delete');
      assert.equal((await feedState(t.db)).prunedThrough, old2, 'the mark never goes back');
    });

    test(`${name}: an index serves a key's page (no scan of the table)`, async () => {
      if (name === 'sqlite') {
        const plan = await t.db.raw("explain query plan select seq, body from change_events where seq > 0 and seq <= 10 and key_id = 'k' order by seq limit 101") as Array<{ detail: string }>;
        assert.ok(plan.some((p) => /USING INDEX change_events_key_id_seq_index/.test(p.detail)), JSON.stringify(plan));
      } else {
        await t.db.raw('set enable_seqscan = off'); // a tiny table would be scanned anyway; ask whether the index can serve
        const plan = await t.db.raw("explain select seq, body from change_events where seq > 0 and seq <= 10 and key_id = 'k' order by seq limit 101");
        const text = (plan.rows as Array<Record<string, string>>).map((r) => Object.values(r)[0]).join('\n');
        await t.db.raw('set enable_seqscan = on');
        assert.match(text, /change_events_key_id_seq_index/, text);
      }
    });
  });
}

describe('change feed commit order on postgres', { skip: skipFor('postgres') }, () => {
  let t: TestDb;
  before(async () => { t = await openTestDb('postgres'); });
  after(async () => { await t?.close(); });

  test('postgres: a later append waits for an earlier uncommitted one; the reader never skips the late committer', async () => {
    const cursor = (await feedState(t.db)).head;
    const trx = await t.db.transaction();
    const first = await appendChange(trx, change('key-c')); // seq taken, not committed
    const second = appendChange(t.db, change('key-c'));
    let settled = false;
    void second.then(() => { settled = true; });
    // The second writer is blocked on the counter row's lock (seen from PostgreSQL itself).
    await until(async () => {
      const r = await t.db.raw("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%change_feed%'");
      return (r.rows[0] as { n: number }).n > 0;
    }, 'the second append waiting on the counter lock', 30_000);
    assert.equal(settled, false);
    // A reader now sees neither: the head it reads is the committed one.
    const state = await feedState(t.db);
    assert.equal(state.head, cursor);
    assert.deepEqual(await changesAfter(t.db, { keyId: 'key-c', after: cursor, through: state.head, limit: 10 }), []);
    await trx.commit();
    const secondSeq = await second;
    assert.ok(secondSeq > first, 'the later writer got the later seq');
    const head = (await feedState(t.db)).head;
    assert.deepEqual((await changesAfter(t.db, { keyId: 'key-c', after: cursor, through: head, limit: 10 })).map((r) => r.seq), [first, secondSeq]);
  });

  test('postgres: 8 writers on 8 connections while a reader follows its cursor: every event once, in seq order', async () => {
    const start = (await feedState(t.db)).head;
    const seen: number[] = [];
    let cursor = start;
    let writing = true;
    const writers = Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 25; i++) await appendChange(t.db, change('key-r'));
    });
    const reader = (async () => {
      while (writing || cursor < (await feedState(t.db)).head) {
        const state = await feedState(t.db);
        const rows = await changesAfter(t.db, { keyId: 'key-r', after: cursor, through: state.head, limit: 7 });
        seen.push(...rows.map((r) => r.seq));
        cursor = rows.length === 7 ? rows.at(-1)!.seq : state.head;
      }
    })();
    await Promise.all(writers);
    writing = false;
    await reader;
    const all = (await t.db('change_events').where({ key_id: 'key-r' }).orderBy('seq').select('seq')).map((r: { seq: string }) => Number(r.seq));
    assert.equal(all.length, 200);
    assert.deepEqual(seen, all, 'no duplicates, no gaps, in order');
  });
});
