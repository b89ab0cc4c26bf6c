// The change feed (listChanges, issue 38): every readiness.changed event of a partner key's
// watches, one row each, kept at least 30 days.
//
// Why a counter row and not an auto-increment id: an auto-increment id is taken when a
// transaction inserts, not when it commits, so with two writers id 8 can become visible before
// id 7, and a reader that saw 8 would move its cursor past 7 for ever (a commit-order gap).
// Here a writer takes the next `seq` by updating the one `change_feed` row inside its own
// transaction: the row stays locked until that transaction commits, so the next writer waits,
// and seqs become visible strictly in their order. A reader that sees seq n has already been
// able to see every seq below n (src/storage/queries/changeFeed.ts).
//
// `pruned_through` is the highest seq deleted by retention: a cursor below it would skip
// events, so it is refused (410) instead.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('change_events', (t) => {
    t.bigInteger('seq').primary();
    t.string('event_id', 100).notNullable().unique(); // the webhook's event id (evt-<watch>.<period>)
    t.string('key_id', 40).notNullable();
    t.string('watch_id', 36).notNullable();
    t.text('body').notNullable(); // the event's JSON, the same bytes a webhook would carry
    t.string('created_at', 32).notNullable();
    // A key's page is an index range: key_id equal, seq after the cursor, in seq order.
    t.index(['key_id', 'seq']);
    t.index(['created_at']); // retention finds its boundary here
  });
  await db.schema.createTable('change_feed', (t) => {
    t.integer('id').primary(); // always 1: the one counter row
    t.bigInteger('head').notNullable(); // the last seq handed out (and, once committed, visible)
    t.bigInteger('pruned_through').notNullable();
  });
  await db('change_feed').insert({ id: 1, head: 0, pruned_through: 0 });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('change_feed');
  await db.schema.dropTable('change_events');
}
