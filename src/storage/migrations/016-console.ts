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
  for (let after = { b: '', s: -1 }; ;) {
    const rows: Array<{ batch_id: string; seq: number; facts: string }> = await db('batch_items').where({ state: 'done' }).whereNotNull('facts')
      .andWhere((w) => w.where('batch_id', '>', after.b).orWhere((x) => x.where('batch_id', after.b).andWhere('seq', '>', after.s)))
      .orderBy([{ column: 'batch_id' }, { column: 'seq' }]).limit(500).select('batch_id', 'seq', 'facts');
    for (const r of rows) {
      let denied: number | null = null;
      try {
        const a = (JSON.parse(r.facts) as { a?: Record<string, number[]> }).a ?? {};
        denied = Object.values(a).filter((x) => x[1] === 1).length;
      } catch { /* unreadable facts stay null: the row sorts last */ }
      await db('batch_items').where({ batch_id: r.batch_id, seq: r.seq }).update({ denied });
    }
    if (rows.length < 500) break;
    after = { b: rows.at(-1)!.batch_id, s: Number(rows.at(-1)!.seq) };
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_items', (t) => {
    t.dropIndex(['batch_id', 'denied', 'seq'], 'batch_items_denied');
    t.dropColumn('denied');
  });
  await db.schema.alterTable('watches', (t) => t.dropIndex(['key_id', 'created_at', 'id'], 'watches_key_created'));
  await db.schema.alterTable('batches', (t) => t.dropIndex(['key_id', 'created_at', 'id'], 'batches_key_created'));
}
