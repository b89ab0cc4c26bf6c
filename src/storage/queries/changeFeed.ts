// The change feed's rows (migration 014). Appends take the next seq from the counter row inside
// their transaction (its row lock orders the commits; see the migration), so seqs become
// visible in order and a reader's cursor can never pass a row that commits later. Pages are
// read up to a head read first: every seq at or below a committed head is committed already.
import type { Knex } from 'knex';

export interface NewChange {
  event_id: string;
  key_id: string;
  watch_id: string;
  body: string;
  created_at: string;
}

export interface ChangeRow {
  seq: number;
  body: string;
}

export interface FeedState {
  /** The last seq committed: a page read up to it has no gap below it. */
  head: number;
  /** Everything at or below this seq was deleted by retention. */
  prunedThrough: number;
}

type Db = Knex | Knex.Transaction;

const inTransaction = <T>(db: Db, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  (db as Knex.Transaction).isTransaction ? fn(db as Knex.Transaction) : (db as Knex).transaction(fn);

/**
 * Appends an event once per event id; returns its seq (that of the earlier row for a repeat).
 * Given a transaction, the row commits with it, and other appends wait for that commit.
 */
export async function appendChange(db: Db, e: NewChange): Promise<number> {
  return inTransaction(db, async (trx) => {
    // Taking the counter first holds its lock: a concurrent append of the same event waits,
    // then finds this row here instead of inserting a second one.
    await trx('change_feed').where({ id: 1 }).increment('head', 1);
    const existing = await trx('change_events').where({ event_id: e.event_id }).first('seq');
    if (existing) return Number(existing.seq); // the seq just taken is left unused: gaps in seqs are harmless, only order matters
    const row = await trx('change_feed').where({ id: 1 }).first('head');
    const seq = Number(row!.head);
    await trx('change_events').insert({ seq, ...e });
    return seq;
  });
}

export async function feedState(db: Db): Promise<FeedState> {
  const row = await db('change_feed').where({ id: 1 }).first('head', 'pruned_through');
  return { head: Number(row!.head), prunedThrough: Number(row!.pruned_through) };
}

/** Rows after `after` up to `through`, in seq order; only `keyId`'s unless null (the operator's view). */
export async function changesAfter(db: Db, q: { keyId: string | null; after: number; through: number; limit: number }): Promise<ChangeRow[]> {
  const query = db('change_events').where('seq', '>', q.after).andWhere('seq', '<=', q.through);
  if (q.keyId !== null) query.andWhere('key_id', q.keyId);
  const rows = await query.orderBy('seq').limit(q.limit).select('seq', 'body');
  return rows.map((r: { seq: number | string; body: string }) => ({ seq: Number(r.seq), body: r.body }));
}

/**
 * Deletes every event up to the last one created before `cutoff` (a prefix of seqs, so a
 * cursor is either whole or refused), and records how far. Returns how many were deleted.
 */
export async function pruneChanges(db: Db, cutoff: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const found = await trx('change_events').where('created_at', '<', cutoff).max({ seq: 'seq' }).first();
    if (found?.seq === null || found?.seq === undefined) return 0;
    const boundary = Number(found.seq);
    // Under the counter's lock, so appends wait; the mark and the deletion commit together.
    await trx('change_feed').where({ id: 1 }).update({
      pruned_through: trx.raw('CASE WHEN pruned_through < ? THEN ? ELSE pruned_through END', [boundary, boundary]),
    });
    return trx('change_events').where('seq', '<=', boundary).delete();
  });
}
