// The partner console (issue 38 item 3). Its lists page a key's batches and watches newest first
// by keyset (created_at, id), so each list needs an index that starts with the key and holds the
// order; and the batch summary's portfolio grid pages a batch's items by how many agents their
// edge denies, which batch_items now carries as a column (null on rows finished before it: they
// sort last and read their cells from `facts` as before).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('batches', (t) => {
    t.index(['key_id', 'created_at', 'id'], 'batches_key_created');
  });
  await db.schema.alterTable('watches', (t) => {
    t.index(['key_id', 'created_at', 'id'], 'watches_key_created');
  });
  await db.schema.alterTable('batch_items', (t) => {
    t.integer('denied').nullable();
    t.index(['batch_id', 'denied', 'seq'], 'batch_items_denied');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_items', (t) => {
    t.dropIndex(['batch_id', 'denied', 'seq'], 'batch_items_denied');
    t.dropColumn('denied');
  });
  await db.schema.alterTable('watches', (t) => t.dropIndex(['key_id', 'created_at', 'id'], 'watches_key_created'));
  await db.schema.alterTable('batches', (t) => t.dropIndex(['key_id', 'created_at', 'id'], 'batches_key_created'));
}
