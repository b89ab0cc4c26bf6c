// Watches' storage (migration 010) on SQLite and PostgreSQL: a run is claimed once per (watch,
// period) and finished once; a watch's status only moves forward; a mail that belongs to no
// scan is queued once by its id, under the per-mailbox cap, with its extra headers kept.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { queueCappedMail } from '../../src/storage/queries/archiveScan.ts';
import { claimMail } from '../../src/storage/queries/mailOutbox.ts';
import {
  activateWatch, claimRun, endWatch, findRun, findWatch, finishRunDone, finishRunOther, insertWatch, latestRun, markAlerted, markCharged, previousDoneRun, type WatchRow,
} from '../../src/storage/queries/watches.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from '../storage/databases.ts';

function watch(over: Partial<WatchRow> = {}): WatchRow {
  return {
    id: randomUUID(), domain: 'watched.example-store.com', lead_name: 'Ada', lead_email: 'ada@example-store.com', lead_phone: null, lead_role: null,
    every: 'day', notify_email: true, webhook_url: null, secret_version: 1, threshold: 5, status: 'pending-confirmation', key_id: null,
    created_at: '2026-01-01T00:00:00.000Z', confirmed_at: null, ended_at: null, ended_by: null, ...over,
  };
}

for (const name of databaseNames()) {
  describe(`watch storage on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: pending → active → ended, each step once`, async () => {
      const w = watch();
      await insertWatch(t.db, w);
      assert.equal(await activateWatch(t.db, w.id, '2026-01-01T00:01:00.000Z', '2000-01-01T00:00:00.000Z'), true);
      assert.equal(await activateWatch(t.db, w.id, '2026-01-01T00:02:00.000Z', '2000-01-01T00:00:00.000Z'), false);
      assert.equal((await findWatch(t.db, w.id))!.confirmed_at, '2026-01-01T00:01:00.000Z');
      assert.equal(await endWatch(t.db, w.id, '2026-01-02T00:00:00.000Z', 'unsubscribed'), true);
      assert.equal(await endWatch(t.db, w.id, '2026-01-03T00:00:00.000Z', 'deleted'), false);
      assert.equal(await activateWatch(t.db, w.id, '2026-01-04T00:00:00.000Z', '2000-01-01T00:00:00.000Z'), false, 'an ended watch never comes back');
      const ended = (await findWatch(t.db, w.id))!;
      assert.deepEqual([ended.status, ended.ended_by], ['ended', 'unsubscribed']);
    });

    test(`${name}: a period's run is claimed once by racing claims, charged once and finished once`, async () => {
      const w = watch({ status: 'active' });
      await insertWatch(t.db, w);
      const claims = await Promise.all([1, 2, 3, 4].map(() => claimRun(t.db, w.id, 0, '2026-01-01T00:00:00.000Z')));
      assert.ok(claims.every((c) => c.state === 'running'));
      const charged = await Promise.all([1, 2, 3].map(() => markCharged(t.db, w.id, 0)));
      assert.deepEqual(charged.filter(Boolean).length, 1);
      const done = await Promise.all([1, 2].map((i) => finishRunDone(t.db, w.id, 0, { scanId: randomUUID(), headline: 'open', score: 90 + i }, '2026-01-01T00:00:10.000Z')));
      assert.equal(done.filter(Boolean).length, 1);
      assert.equal(await finishRunOther(t.db, w.id, 0, 'failed', 'late', '2026-01-01T00:00:11.000Z'), false);
      assert.equal((await claimRun(t.db, w.id, 0, '2026-01-01T00:05:00.000Z')).state, 'done', 'a later claim reads the finished run');
      await claimRun(t.db, w.id, 1, '2026-01-02T00:00:00.000Z');
      await finishRunOther(t.db, w.id, 1, 'skipped', 'no scan left', '2026-01-02T00:00:01.000Z');
      await claimRun(t.db, w.id, 2, '2026-01-03T00:00:00.000Z');
      assert.equal((await previousDoneRun(t.db, w.id, 2))!.period, 0, 'the comparison skips runs that did not scan');
      assert.equal((await latestRun(t.db, w.id))!.period, 2);
      assert.equal(await markAlerted(t.db, w.id, 0, null, '[]', '2026-01-01T00:00:12.000Z'), true);
      assert.equal(await markAlerted(t.db, w.id, 0, null, '[]', '2026-01-01T00:00:13.000Z'), false);
      assert.equal((await findRun(t.db, w.id, 0))!.alerted_at, '2026-01-01T00:00:12.000Z');
    });

    test(`${name}: a mail of no scan is queued once by id, capped per mailbox, its headers kept`, async () => {
      const w = watch();
      await insertWatch(t.db, w);
      const to = `cap-${randomUUID().slice(0, 8)}@example-store.com`;
      const mail = (id: string) => ({ id, to_addr: to, subject: 's', text_body: 't', html_body: '<p>h</p>', headers: JSON.stringify({ 'List-Unsubscribe': '<https://x.test/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }) });
      const cap = { perRecipientPerDay: 2, queuedAt: '2026-01-01T00:00:00.000Z' };
      assert.equal(await queueCappedMail(t.db, mail(`watch-confirm-${w.id}`), cap, { watchId: w.id }), 'queued');
      assert.equal(await queueCappedMail(t.db, mail(`watch-confirm-${w.id}`), cap, { watchId: w.id }), 'already-queued');
      assert.equal(await queueCappedMail(t.db, mail(`watch-alert-${w.id}.1`), cap, { watchId: w.id }), 'queued');
      assert.equal(await queueCappedMail(t.db, mail(`watch-alert-${w.id}.2`), cap, { watchId: w.id }), 'capped');
      const claimed = await claimMail(t.db, 'me', '2026-01-01T00:00:01.000Z', '2026-01-01T00:05:00.000Z', 10);
      const mine = claimed.filter((m) => m.to_addr === to);
      assert.equal(mine.length, 2);
      assert.equal(mine[0]!.scan_id, null);
      assert.equal(JSON.parse(mine[0]!.headers!)['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
    });
  });
}
