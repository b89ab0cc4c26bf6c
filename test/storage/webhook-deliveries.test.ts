// Webhook delivery rows (migration 010), on SQLite and PostgreSQL: one row per event id however
// often it is sent, attempts counted only while the row is pending (a redelivered job cannot
// send a delivered event again, nor fail it), a watch's latest rows newest first, and the
// pending rows paged for the resume at start.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  deleteWatchDeliveries, findDelivery, insertDelivery, listDeliveries, markFailed, pendingDeliveries, recordAttempt, redeliver, undoRedeliver, type NewDelivery,
} from '../../src/storage/queries/webhookDeliveries.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

function delivery(over: Partial<NewDelivery> = {}): NewDelivery {
  const eventId = `evt_${randomUUID()}`;
  return {
    id: randomUUID(), watch_id: 'w-1', event_id: eventId, type: 'readiness.changed', url: 'https://hooks.example-store.com/in',
    secret_version: 1, body: JSON.stringify({ id: eventId, type: 'readiness.changed', note: 'bücher ✓' }), created_at: '2026-01-01T00:00:00.000Z', ...over,
  };
}

for (const name of databaseNames()) {
  describe(`webhook deliveries on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: a second insert of the same event id returns the first row, unchanged; the body's bytes are kept`, async () => {
      const d = delivery();
      const first = await insertDelivery(t.db, d);
      assert.deepEqual(first, { ...d, status: 'pending', attempts: 0, last_status_code: null, last_error: null, delivered_at: null, redeliveries: 0, redelivered_at: null, last_attempt_at: null });
      const again = await insertDelivery(t.db, { ...d, id: randomUUID(), url: 'https://elsewhere.example-store.com/', body: '{}' });
      assert.deepEqual(again, first);
      const rows = await t.db('webhook_deliveries').where({ event_id: d.event_id }).select('id');
      assert.equal(rows.length, 1);
    });

    test(`${name}: redeliver puts a finished row back to pending once per gap, never a pending one; undoRedeliver restores it`, async () => {
      const d = delivery();
      await insertDelivery(t.db, d);
      const at = new Date('2026-01-01T00:10:00.000Z');
      assert.equal(await redeliver(t.db, d.id, at, 60_000), false, 'a pending row is on its way already');
      await recordAttempt(t.db, d.id, { delivered: true, statusCode: 200, error: null, at: '2026-01-01T00:00:05.000Z' });
      const delivered = (await findDelivery(t.db, d.id))!;
      assert.equal(delivered.last_attempt_at, '2026-01-01T00:00:05.000Z');
      assert.equal(await redeliver(t.db, d.id, at, 60_000), true);
      const again = (await findDelivery(t.db, d.id))!;
      assert.deepEqual([again.status, again.redeliveries, again.redelivered_at, again.delivered_at], ['pending', 1, at.toISOString(), null]);
      await undoRedeliver(t.db, delivered);
      assert.deepEqual(await findDelivery(t.db, d.id), delivered, 'as it was before');
      assert.equal(await redeliver(t.db, d.id, at, 60_000), true);
      await recordAttempt(t.db, d.id, { delivered: false, statusCode: 503, error: 'down', at: '2026-01-01T00:10:01.000Z' });
      await markFailed(t.db, d.id);
      assert.equal(await redeliver(t.db, d.id, new Date(at.getTime() + 59_000), 60_000), false, 'within the gap');
      assert.equal(await redeliver(t.db, d.id, new Date(at.getTime() + 60_000), 60_000), true, 'once the gap has passed');
      assert.equal((await findDelivery(t.db, d.id))!.redeliveries, 2);
    });

    test(`${name}: attempts count while pending; a delivered row is neither counted again nor failed`, async () => {
      const d = delivery();
      await insertDelivery(t.db, d);
      assert.equal(await recordAttempt(t.db, d.id, { delivered: false, statusCode: 500, error: 'the receiver answered 500', at: '2026-01-01T00:00:05.000Z' }), true);
      assert.equal(await recordAttempt(t.db, d.id, { delivered: false, statusCode: null, error: 'no complete answer (TIMEOUT)', at: '2026-01-01T00:00:15.000Z' }), true);
      let row = (await findDelivery(t.db, d.id))!;
      assert.deepEqual([row.status, row.attempts, row.last_status_code, row.last_error, row.delivered_at], ['pending', 2, null, 'no complete answer (TIMEOUT)', null]);
      assert.equal(await recordAttempt(t.db, d.id, { delivered: true, statusCode: 204, error: null, at: '2026-01-01T00:00:35.000Z' }), true);
      row = (await findDelivery(t.db, d.id))!;
      assert.deepEqual([row.status, row.attempts, row.last_status_code, row.last_error, row.delivered_at], ['delivered', 3, 204, null, '2026-01-01T00:00:35.000Z']);
      assert.equal(await recordAttempt(t.db, d.id, { delivered: false, statusCode: 500, error: 'late', at: '2026-01-01T00:01:00.000Z' }), false);
      assert.equal(await markFailed(t.db, d.id), false);
      assert.deepEqual(await findDelivery(t.db, d.id), row);
    });

    test(`${name}: a failed row stays failed`, async () => {
      const d = delivery();
      await insertDelivery(t.db, d);
      assert.equal(await markFailed(t.db, d.id), true);
      assert.equal(await recordAttempt(t.db, d.id, { delivered: true, statusCode: 200, error: null, at: '2026-01-01T00:00:05.000Z' }), false);
      assert.equal((await findDelivery(t.db, d.id))!.status, 'failed');
    });

    test(`${name}: a watch's latest deliveries, newest first, limited; other watches' apart`, async () => {
      const watch = `w-${randomUUID()}`;
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await insertDelivery(t.db, delivery({ watch_id: watch, created_at: `2026-02-0${i + 1}T00:00:00.000Z` })));
      await insertDelivery(t.db, delivery({ watch_id: `w-${randomUUID()}`, created_at: '2026-03-01T00:00:00.000Z' }));
      const listed = await listDeliveries(t.db, watch, 3);
      assert.deepEqual(listed.map((r) => r.event_id), made.slice(2).reverse().map((r) => r.event_id));
      assert.deepEqual(await listDeliveries(t.db, `w-${randomUUID()}`, 3), []);
    });

    test(`${name}: a deleted watch's deliveries go, other watches' stay`, async () => {
      const gone = `w-${randomUUID()}`;
      const kept = `w-${randomUUID()}`;
      await insertDelivery(t.db, delivery({ watch_id: gone }));
      await insertDelivery(t.db, delivery({ watch_id: gone }));
      const other = await insertDelivery(t.db, delivery({ watch_id: kept }));
      assert.equal(await deleteWatchDeliveries(t.db, gone), 2);
      assert.deepEqual(await listDeliveries(t.db, gone, 10), []);
      assert.deepEqual(await listDeliveries(t.db, kept, 10), [other]);
    });

    test(`${name}: pending rows page in id order, settled ones left out`, async () => {
      await t.db('webhook_deliveries').update({ status: 'failed' });
      const rows = await Promise.all(Array.from({ length: 5 }, () => insertDelivery(t.db, delivery())));
      await recordAttempt(t.db, rows[1]!.id, { delivered: true, statusCode: 200, error: null, at: '2026-01-01T00:00:00.000Z' });
      const seen: string[] = [];
      let after = '';
      for (;;) {
        const page = await pendingDeliveries(t.db, after, 2);
        if (page.length === 0) break;
        seen.push(...page.map((p) => p.id));
        after = page.at(-1)!.id;
      }
      assert.deepEqual(seen, rows.filter((_, i) => i !== 1).map((r) => r.id).sort());
    });
  });
}
