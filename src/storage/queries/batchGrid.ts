// The portfolio grid's rows (the batch summary pages): a batch's done items, most agents denied
// first, then in submission order, a page at a time. The page is an offset: a batch is read
// after it has finished, so its order no longer moves, and a page number is what a person pages
// by. Served by the (batch_id, denied, seq) index of migration 016.
import type { Knex } from 'knex';
import type { ItemRow } from './batches.ts';

export type GridRow = Pick<ItemRow, 'seq' | 'domain' | 'scan_id' | 'report_archived' | 'headline' | 'facts'> & { denied: number | null };

export async function gridRows(db: Knex, batchId: string, offset: number, limit: number): Promise<GridRow[]> {
  const rows: GridRow[] = await db('batch_items').where({ batch_id: batchId, state: 'done' })
    .orderByRaw('coalesce(denied, -1) desc, seq asc').offset(offset).limit(limit)
    .select('seq', 'domain', 'scan_id', 'report_archived', 'headline', 'facts', 'denied');
  return rows.map((r) => ({ ...r, seq: Number(r.seq), denied: r.denied === null ? null : Number(r.denied) }));
}

export async function countDone(db: Knex, batchId: string): Promise<number> {
  const row = await db('batch_items').where({ batch_id: batchId, state: 'done' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
