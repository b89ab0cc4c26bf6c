// Webhook deliveries (migration 010). A row is inserted once per event id (a second send of the
// same event is ignored) and finished by conditional updates that touch it only while it is
// still pending, so a job redelivered after a crash, or run twice by two instances, can never
// send a delivered event again nor turn a delivered row back into a failed one.
import type { Knex } from 'knex';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  watch_id: string;
  event_id: string;
  type: string;
  url: string;
  secret_version: number;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  /** Migration 014: times sent again on request, the last of them, and the last attempt's time. */
  redeliveries: number;
  redelivered_at: string | null;
  last_attempt_at: string | null;
}

export type NewDelivery = Pick<DeliveryRow, 'id' | 'watch_id' | 'event_id' | 'type' | 'url' | 'secret_version' | 'body' | 'created_at'>;

/** The row for this event: the one just inserted, or the one an earlier send of the same event id stored. */
export async function insertDelivery(db: Knex, d: NewDelivery): Promise<DeliveryRow> {
  await db('webhook_deliveries').insert({ ...d, status: 'pending', attempts: 0 }).onConflict('event_id').ignore();
  return (await findDeliveryByEvent(db, d.event_id))!;
}

function normal(row: DeliveryRow | undefined): DeliveryRow | undefined {
  if (!row) return undefined;
  // PostgreSQL returns integers as numbers here, SQLite too; counts are coerced all the same.
  return { ...row, attempts: Number(row.attempts), redeliveries: Number(row.redeliveries ?? 0), secret_version: Number(row.secret_version), last_status_code: row.last_status_code === null ? null : Number(row.last_status_code) };
}

export async function findDelivery(db: Knex, id: string): Promise<DeliveryRow | undefined> {
  return normal(await db<DeliveryRow>('webhook_deliveries').where({ id }).first());
}

export async function findDeliveryByEvent(db: Knex, eventId: string): Promise<DeliveryRow | undefined> {
  return normal(await db<DeliveryRow>('webhook_deliveries').where({ event_id: eventId }).first());
}

export interface AttemptOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  at: string;
}

/** Counts one attempt on a pending row; false when the row was already final (nothing changed). */
export async function recordAttempt(db: Knex, id: string, o: AttemptOutcome): Promise<boolean> {
  const changed = await db('webhook_deliveries').where({ id, status: 'pending' }).update({
    attempts: db.raw('attempts + 1'),
    last_status_code: o.statusCode,
    last_error: o.error,
    last_attempt_at: o.at,
    ...(o.delivered ? { status: 'delivered', delivered_at: o.at } : {}),
  });
  return changed > 0;
}

/**
 * Puts a finished delivery (delivered or failed) back to pending for one more send, at most once
 * per `minGapMs`: false (nothing changed) when it is pending or was redelivered too recently.
 */
export async function redeliver(db: Knex, id: string, at: Date, minGapMs: number): Promise<boolean> {
  const changed = await db('webhook_deliveries').where({ id }).whereIn('status', ['delivered', 'failed'])
    .andWhere((q) => q.whereNull('redelivered_at').orWhere('redelivered_at', '<=', new Date(at.getTime() - minGapMs).toISOString()))
    .update({ status: 'pending', redeliveries: db.raw('redeliveries + 1'), redelivered_at: at.toISOString(), delivered_at: null });
  return changed > 0;
}

/** Undoes redeliver() when its job could not be queued: the row as it was, so nothing waits for a job that does not exist. */
export async function undoRedeliver(db: Knex, before: Pick<DeliveryRow, 'id' | 'status' | 'redeliveries' | 'redelivered_at' | 'delivered_at'>): Promise<void> {
  await db('webhook_deliveries').where({ id: before.id, status: 'pending' })
    .update({ status: before.status, redeliveries: before.redeliveries, redelivered_at: before.redelivered_at, delivered_at: before.delivered_at });
}

/** Gives a pending delivery up: its attempts are used. */
export async function markFailed(db: Knex, id: string): Promise<boolean> {
  return (await db('webhook_deliveries').where({ id, status: 'pending' }).update({ status: 'failed' })) > 0;
}

/** Gives a pending delivery up unsent, saying why (its watch ended before the request left). */
export async function abandonDelivery(db: Knex, id: string, why: string): Promise<boolean> {
  return (await db('webhook_deliveries').where({ id, status: 'pending' }).update({ status: 'failed', last_error: why })) > 0;
}

/** Removes a watch's deliveries (the watch was deleted): a job still queued for one finds no row and sends nothing. */
export async function deleteWatchDeliveries(db: Knex, watchId: string): Promise<number> {
  return db('webhook_deliveries').where({ watch_id: watchId }).delete();
}

/** A watch's latest deliveries, newest first. */
export async function listDeliveries(db: Knex, watchId: string, limit: number): Promise<DeliveryRow[]> {
  const rows = await db<DeliveryRow>('webhook_deliveries').where({ watch_id: watchId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
  return rows.map((r) => normal(r)!);
}

/** Pending deliveries in id order after `afterId`, a page at a time (re-enqueued at start). */
export async function pendingDeliveries(db: Knex, afterId: string, limit: number): Promise<Array<Pick<DeliveryRow, 'id' | 'type' | 'created_at' | 'redeliveries'>>> {
  const rows = await db('webhook_deliveries').where('status', 'pending').andWhere('id', '>', afterId).orderBy('id').limit(limit).select('id', 'type', 'created_at', 'redeliveries');
  return rows.map((r: { id: string; type: string; created_at: string; redeliveries: number | string }) => ({ ...r, redeliveries: Number(r.redeliveries) }));
}
