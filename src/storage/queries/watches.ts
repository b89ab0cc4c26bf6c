// Watches and their runs (migration 010). A run row is written once per (watch, period) and
// finished by a conditional update (only while still running), so a redelivered job, or two
// instances racing on one period, finish it once. A watch's status moves one way only:
// pending-confirmation → active → ended, each step a conditional update.
import type { Knex } from 'knex';

export type WatchStatus = 'pending-confirmation' | 'active' | 'ended';
export type RunState = 'running' | 'done' | 'failed' | 'skipped';

export interface WatchRow {
  id: string;
  domain: string;
  lead_name: string;
  lead_email: string;
  lead_phone: string | null;
  lead_role: string | null;
  every: 'day' | 'week';
  notify_email: boolean | number;
  webhook_url: string | null;
  secret_version: number;
  threshold: number;
  status: WatchStatus;
  key_id: string | null;
  created_at: string;
  confirmed_at: string | null;
  ended_at: string | null;
  ended_by: string | null;
}

export interface RunRow {
  watch_id: string;
  period: number;
  state: RunState;
  charged: boolean | number;
  scan_id: string | null;
  headline: string | null;
  score: number | null;
  changes: string | null;
  previous_scan_id: string | null;
  alerted_at: string | null;
  /** The alert mail: queued, or capped (the recipient's mails of the day were used up); null when none was due. */
  alert_mail: AlertMail | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface RunResult {
  scanId: string;
  headline: string;
  score: number | null;
}

export async function insertWatch(db: Knex, row: WatchRow): Promise<void> {
  await db('watches').insert(row);
}

export async function deleteWatchRow(db: Knex, id: string): Promise<void> {
  await db('watches').where({ id }).delete();
}

export async function findWatch(db: Knex, id: string): Promise<WatchRow | undefined> {
  return db<WatchRow>('watches').where({ id }).first();
}

/** Whether the watch exists and is active now (what every delivery asks right before it goes). */
export async function watchIsActive(db: Knex, id: string): Promise<boolean> {
  return (await db('watches').where({ id }).first('status'))?.status === 'active';
}

/** pending-confirmation → active, unless it was created before `notCreatedBefore` (its confirmation expired); true when this call activated it. */
export async function activateWatch(db: Knex, id: string, at: string, notCreatedBefore: string): Promise<boolean> {
  return (await db('watches').where({ id, status: 'pending-confirmation' }).andWhere('created_at', '>=', notCreatedBefore).update({ status: 'active', confirmed_at: at })) === 1;
}

/**
 * Deletes up to `limit` watches still pending confirmation that were created before `cutoff`,
 * each by a conditional delete (a watch confirmed meanwhile stays), with what hangs on them:
 * runs and webhook deliveries (none should exist), and mails not yet sent, which are marked
 * dropped (kept, as they count toward their mailbox's cap). Returns the ids deleted.
 */
export async function deleteExpiredPending(db: Knex, cutoff: string, limit: number): Promise<string[]> {
  const candidates: Array<{ id: string }> = await db('watches').where({ status: 'pending-confirmation' }).andWhere('created_at', '<', cutoff).orderBy('created_at').limit(limit).select('id');
  const deleted: string[] = [];
  for (const { id } of candidates) {
    await db.transaction(async (trx) => {
      if ((await trx('watches').where({ id, status: 'pending-confirmation' }).andWhere('created_at', '<', cutoff).delete()) !== 1) return;
      await trx('watch_runs').where({ watch_id: id }).delete();
      await trx('webhook_deliveries').where({ watch_id: id }).delete();
      await trx('mail_outbox').where({ watch_id: id, status: 'pending' }).update({ status: 'dropped', last_error: 'not sent: the watch was never confirmed and has expired' });
      deleted.push(id);
    });
  }
  return deleted;
}

/** Any status but ended → ended; true when this call ended it. */
export async function endWatch(db: Knex, id: string, at: string, by: 'deleted' | 'unsubscribed'): Promise<boolean> {
  return (await db('watches').where({ id }).whereNot({ status: 'ended' }).update({ status: 'ended', ended_at: at, ended_by: by })) === 1;
}

/** Active watches after `afterId`, `limit` at a time (re-enqueueing their next run at start). */
export async function activeWatches(db: Knex, afterId: string, limit: number): Promise<WatchRow[]> {
  return db<WatchRow>('watches').where({ status: 'active' }).andWhere('id', '>', afterId).orderBy('id').limit(limit);
}

/** Writes the period's run as running, once; returns the row as it now stands (this call's or an earlier one's). */
export async function claimRun(db: Knex, watchId: string, period: number, at: string): Promise<RunRow> {
  await db('watch_runs').insert({ watch_id: watchId, period, state: 'running', charged: false, started_at: at }).onConflict(['watch_id', 'period']).ignore();
  return (await findRun(db, watchId, period))!;
}

export async function findRun(db: Knex, watchId: string, period: number): Promise<RunRow | undefined> {
  return db<RunRow>('watch_runs').where({ watch_id: watchId, period }).first();
}

/** Marks the run's scan as paid for by its key; true when this call did (so the key is charged once). */
export async function markCharged(db: Knex, watchId: string, period: number): Promise<boolean> {
  return (await db('watch_runs').where({ watch_id: watchId, period, charged: false }).update({ charged: true })) === 1;
}

/** running → done with the scan; false (nothing changed) when the run was already finished. */
export async function finishRunDone(db: Knex, watchId: string, period: number, r: RunResult, at: string): Promise<boolean> {
  return (await db('watch_runs').where({ watch_id: watchId, period, state: 'running' }).update({
    state: 'done', scan_id: r.scanId, headline: r.headline, score: r.score, finished_at: at,
  })) === 1;
}

/** running → failed or skipped, with why. */
export async function finishRunOther(db: Knex, watchId: string, period: number, state: 'failed' | 'skipped', error: string, at: string): Promise<boolean> {
  return (await db('watch_runs').where({ watch_id: watchId, period, state: 'running' }).update({ state, error: error.slice(0, 500), finished_at: at })) === 1;
}

export type AlertMail = 'queued' | 'capped';

/** Records what the run's alerts were decided on, and what became of its mail (once). */
export async function markAlerted(db: Knex, watchId: string, period: number, previousScanId: string | null, changes: string, at: string, alertMail: AlertMail | null = null): Promise<boolean> {
  return (await db('watch_runs').where({ watch_id: watchId, period }).whereNull('alerted_at').update({ previous_scan_id: previousScanId, changes, alerted_at: at, alert_mail: alertMail })) === 1;
}

/** The latest done run before `period`: what this run is compared with. */
export async function previousDoneRun(db: Knex, watchId: string, period: number): Promise<RunRow | undefined> {
  return db<RunRow>('watch_runs').where({ watch_id: watchId, state: 'done' }).andWhere('period', '<', period).orderBy('period', 'desc').first();
}

/** The newest run (the next period to schedule follows it). */
export async function latestRun(db: Knex, watchId: string): Promise<RunRow | undefined> {
  return db<RunRow>('watch_runs').where({ watch_id: watchId }).orderBy('period', 'desc').first();
}

export async function listRuns(db: Knex, watchId: string, limit: number): Promise<RunRow[]> {
  return db<RunRow>('watch_runs').where({ watch_id: watchId }).orderBy('period', 'desc').limit(limit);
}
