// Batches and their items (migration 009). Items are written once as pending and finished by
// a conditional update (only while still pending), which is what makes a batch item's work
// idempotent: a redelivered job, or two instances racing on one item, finish it once.
import type { Knex } from 'knex';

export type BatchStatus = 'queued' | 'running' | 'done' | 'cancelled';
export type ItemState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** Not finished: waiting, or taken by a job (which may have died: a redelivery takes it again). */
const OPEN = ['pending', 'running'];

export interface BatchRow {
  id: string;
  key_id: string;
  label: string | null;
  profile: string | null;
  status: BatchStatus;
  total: number;
  rejected: string;
  charged_day: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Version of the capability links' token (migration 013); absent on rows written before it, read as 1. */
  links_version?: number;
}

export interface ItemRow {
  batch_id: string;
  seq: number;
  domain: string;
  state: ItemState;
  scan_id: string | null;
  report_archived: boolean | number | null;
  headline: string | null;
  score: number | null;
  confidence: string | null;
  error: string | null;
  facts: string | null;
  finished_at: string | null;
  /** Migration 016; null on items not done, and on rows written before it whose facts were absent. */
  denied?: number | null;
}

export interface ItemResult {
  scanId: string;
  archived: boolean;
  headline: string;
  score: number | null;
  confidence: string;
  facts: string;
  /** Agents the matrix denies (migration 016: the portfolio grid's order); absent, stored as null. */
  denied?: number;
}

/** Writes the batch and all its items in one transaction (chunked inserts). */
export async function insertBatch(db: Knex, batch: BatchRow, domains: readonly string[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('batches').insert(batch);
    const rows = domains.map((domain, seq) => ({ batch_id: batch.id, seq, domain, state: 'pending' }));
    // Below SQLite's 32,766 bound variables per statement (4 columns a row).
    for (let i = 0; i < rows.length; i += 500) await trx('batch_items').insert(rows.slice(i, i + 500));
  });
}

export async function deleteBatch(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('batch_items').where({ batch_id: id }).delete();
    await trx('batches').where({ id }).delete();
  });
}

export async function findBatch(db: Knex, id: string): Promise<BatchRow | undefined> {
  return db<BatchRow>('batches').where({ id }).first();
}

/** Bumps the batch's links version (rotating its capability links); the new version, or undefined for no batch. */
export async function bumpLinksVersion(db: Knex, id: string): Promise<number | undefined> {
  return db.transaction(async (trx) => {
    const n = await trx('batches').where({ id }).increment('links_version', 1);
    if (!n) return undefined;
    const row = await trx<BatchRow>('batches').where({ id }).first('links_version');
    return row?.links_version ?? undefined;
  });
}

export async function findItem(db: Knex, batchId: string, seq: number): Promise<ItemRow | undefined> {
  return db<ItemRow>('batch_items').where({ batch_id: batchId, seq }).first();
}

/** Items by state and, for done ones, by headline. */
export async function countItems(db: Knex, batchId: string): Promise<{ byState: Record<string, number>; byHeadline: Record<string, number> }> {
  const states: Array<{ state: string; n: number | string }> = await db('batch_items').where({ batch_id: batchId }).groupBy('state').select('state').count({ n: '*' });
  const headlines: Array<{ headline: string; n: number | string }> = await db('batch_items').where({ batch_id: batchId, state: 'done' }).groupBy('headline').select('headline').count({ n: '*' });
  return {
    byState: Object.fromEntries(states.map((r) => [String(r.state), Number(r.n)])),
    byHeadline: Object.fromEntries(headlines.map((r) => [String(r.headline), Number(r.n)])),
  };
}

/** Items after `afterSeq`, in order, `limit` at a time: the results and the summary are read page by page. */
export async function pageItems(db: Knex, batchId: string, afterSeq: number, limit: number): Promise<ItemRow[]> {
  return db<ItemRow>('batch_items').where({ batch_id: batchId }).andWhere('seq', '>', afterSeq).orderBy('seq').limit(limit);
}

/** Finishes an open item as done; false (and nothing changed) when it was already finished or cancelled. */
export async function finishItemDone(db: Knex, batchId: string, seq: number, r: ItemResult, at: string): Promise<boolean> {
  const changed = await db('batch_items').where({ batch_id: batchId, seq }).whereIn('state', OPEN).update({
    state: 'done', scan_id: r.scanId, report_archived: r.archived, headline: r.headline, score: r.score, confidence: r.confidence, facts: r.facts, denied: r.denied ?? null, finished_at: at,
  });
  return changed === 1;
}

export async function finishItemFailed(db: Knex, batchId: string, seq: number, error: string, at: string): Promise<boolean> {
  return (await db('batch_items').where({ batch_id: batchId, seq }).whereIn('state', OPEN).update({ state: 'failed', error, finished_at: at })) === 1;
}

/** pending → running: a cancel no longer takes it, and it finishes as it runs. */
export async function markItemRunning(db: Knex, batchId: string, seq: number): Promise<void> {
  await db('batch_items').where({ batch_id: batchId, seq, state: 'pending' }).update({ state: 'running' });
}

/**
 * Takes the item for a scan about to start: pending → running, or already running (a run that
 * took it earlier died, or still runs: the archive write stays conditional). False when it was
 * cancelled or finished: then nothing may be sent. One conditional update against cancelBatch's
 * transaction, so a cancel that has answered never sees its items scanned afterwards.
 */
export async function takeItem(db: Knex, batchId: string, seq: number): Promise<boolean> {
  if ((await db('batch_items').where({ batch_id: batchId, seq, state: 'pending' }).update({ state: 'running' })) === 1) return true;
  return (await db('batch_items').where({ batch_id: batchId, seq, state: 'running' }).first('seq')) !== undefined;
}

/** queued → running, stamping started_at, once. */
export async function markStarted(db: Knex, batchId: string, at: string): Promise<void> {
  await db('batches').where({ id: batchId, status: 'queued' }).update({ status: 'running', started_at: at });
}

/** queued|running → done once no item is pending. */
export async function finishIfDone(db: Knex, batchId: string, at: string): Promise<boolean> {
  const pending = await db('batch_items').where({ batch_id: batchId }).whereIn('state', OPEN).first('seq');
  if (pending) return false;
  return (await db('batches').where({ id: batchId }).whereIn('status', ['queued', 'running']).update({ status: 'done', finished_at: at })) === 1;
}

/**
 * The reconciler's step: every queued or running batch with no open item is marked done, in one
 * statement, whatever crashed between its last item and finishIfDone. Conditional, so any
 * number of instances may run it at once. Returns how many it finished.
 */
export async function finishDoneBatches(db: Knex, at: string): Promise<number> {
  return db('batches').whereIn('status', ['queued', 'running'])
    .whereNotExists(db('batch_items').whereRaw('batch_items.batch_id = batches.id').whereIn('state', OPEN).select(db.raw('1')))
    .update({ status: 'done', finished_at: at });
}

/** Cancels the items not started (still pending) and the batch; returns their seqs. */
export async function cancelBatch(db: Knex, batchId: string, at: string): Promise<number[]> {
  return db.transaction(async (trx) => {
    const pending = (await trx('batch_items').where({ batch_id: batchId, state: 'pending' }).select('seq')).map((r: { seq: number }) => Number(r.seq));
    await trx('batch_items').where({ batch_id: batchId, state: 'pending' }).update({ state: 'cancelled', finished_at: at });
    await trx('batches').where({ id: batchId }).whereIn('status', ['queued', 'running']).update({ status: 'cancelled', finished_at: at });
    return pending;
  });
}

/** Pending items of batches not finished, for re-enqueueing at start (ids already queued are no-ops). */
export async function pendingItems(db: Knex, afterBatch: string, afterSeq: number, limit: number): Promise<Array<{ batch_id: string; seq: number; profile: string | null }>> {
  return db('batch_items as i').join('batches as b', 'b.id', 'i.batch_id')
    .whereIn('b.status', ['queued', 'running']).whereIn('i.state', OPEN)
    .andWhere((w) => w.where('i.batch_id', '>', afterBatch).orWhere((x) => x.where('i.batch_id', afterBatch).andWhere('i.seq', '>', afterSeq)))
    .orderBy([{ column: 'i.batch_id' }, { column: 'i.seq' }]).limit(limit).select('i.batch_id', 'i.seq', 'b.profile');
}
