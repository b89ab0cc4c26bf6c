// What the partner console lists (listBatches, listWatches): a key's batches and watches, newest
// first, by keyset on (created_at, id) so a page never shifts when new rows arrive, each read
// through the (key_id, created_at, id) indexes of migration 016; and what each listed row shows,
// read for the whole page in one grouped query rather than one per row.
import type { Knex } from 'knex';
import type { BatchRow } from './batches.ts';
import type { RunRow, WatchRow } from './watches.ts';

/** The last row of the page before: the page starts strictly after it. */
export interface Keyset { createdAt: string; id: string }

function after<T extends {}>(q: Knex.QueryBuilder<T>, k: Keyset | null): Knex.QueryBuilder<T> {
  if (!k) return q;
  return q.andWhere((w) => w.where('created_at', '<', k.createdAt).orWhere((x) => x.where('created_at', k.createdAt).andWhere('id', '<', k.id)));
}

/** Up to `limit` batches of the key after `k`, newest first (the query, so a test can read its plan). */
export function keyBatchesQuery(db: Knex, keyId: string, k: Keyset | null, limit: number) {
  return after(db<BatchRow>('batches').where({ key_id: keyId }), k).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
}

export async function keyBatches(db: Knex, keyId: string, k: Keyset | null, limit: number): Promise<BatchRow[]> {
  return keyBatchesQuery(db, keyId, k, limit);
}

/** Up to `limit` watches created with the key after `k`, newest first. */
export function keyWatchesQuery(db: Knex, keyId: string, k: Keyset | null, limit: number) {
  return after(db<WatchRow>('watches').where({ key_id: keyId }), k).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
}

export async function keyWatches(db: Knex, keyId: string, k: Keyset | null, limit: number): Promise<WatchRow[]> {
  return keyWatchesQuery(db, keyId, k, limit);
}

export type Counts = { byState: Record<string, number>; byHeadline: Record<string, number> };

/** countItems (batches.ts) for several batches at once: two grouped queries for the page. */
export async function itemCounts(db: Knex, batchIds: readonly string[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>(batchIds.map((id) => [id, { byState: {}, byHeadline: {} }]));
  if (batchIds.length === 0) return out;
  const states: Array<{ batch_id: string; state: string; n: number | string }> = await db('batch_items').whereIn('batch_id', batchIds).groupBy('batch_id', 'state').select('batch_id', 'state').count({ n: '*' });
  for (const r of states) out.get(r.batch_id)!.byState[r.state] = Number(r.n);
  const heads: Array<{ batch_id: string; headline: string; n: number | string }> = await db('batch_items').whereIn('batch_id', batchIds).andWhere({ state: 'done' }).groupBy('batch_id', 'headline').select('batch_id', 'headline').count({ n: '*' });
  for (const r of heads) out.get(r.batch_id)!.byHeadline[String(r.headline)] = Number(r.n);
  return out;
}

export interface WatchFacts {
  lastRun: RunRow | null;
  /** finished_at of the last run whose changes are not empty. */
  lastChangeAt: string | null;
  failing: number;
}

/** Per watch of the page: its newest run, its last change, its failing deliveries. */
export async function watchFacts(db: Knex, watchIds: readonly string[]): Promise<Map<string, WatchFacts>> {
  const out = new Map<string, WatchFacts>(watchIds.map((id) => [id, { lastRun: null, lastChangeAt: null, failing: 0 }]));
  if (watchIds.length === 0) return out;
  // The newest period per watch, then those rows (the primary key (watch_id, period) serves both).
  const newest = db('watch_runs').whereIn('watch_id', watchIds).groupBy('watch_id').select('watch_id').max({ period: 'period' });
  const runs: RunRow[] = await db<RunRow>('watch_runs as r').join(newest.as('m'), (j) => j.on('m.watch_id', '=', 'r.watch_id').andOn('m.period', '=', 'r.period')).select('r.*');
  for (const r of runs) out.get(r.watch_id)!.lastRun = { ...r, period: Number(r.period) };
  const changed: Array<{ watch_id: string; at: string | null }> = await db('watch_runs').whereIn('watch_id', watchIds).whereNotNull('changes').andWhereNot('changes', '[]')
    .groupBy('watch_id').select('watch_id').max({ at: 'finished_at' });
  for (const r of changed) out.get(r.watch_id)!.lastChangeAt = r.at;
  const failing: Array<{ watch_id: string; n: number | string }> = await db('webhook_deliveries').whereIn('watch_id', watchIds)
    .andWhere((w) => w.where('status', 'failed').orWhere((x) => x.where('status', 'pending').andWhere('attempts', '>', 0)))
    .groupBy('watch_id').select('watch_id').count({ n: '*' });
  for (const r of failing) out.get(r.watch_id)!.failing = Number(r.n);
  return out;
}
