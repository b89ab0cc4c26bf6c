// The outbox a mailer drains. Claiming is a conditional update (the lease), so two mailers
// never work on one row at the same time, and a mailer that dies mid-send leaves a lease that
// simply expires.
import type { Knex } from 'knex';

export interface MailRow {
  id: string;
  /** Null for a mail that belongs to no scan (a watch's confirmation). */
  scan_id: string | null;
  watch_id?: string | null;
  /** JSON of extra headers (List-Unsubscribe…), or null. */
  headers?: string | null;
  to_addr: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** dropped: never sent, because the watch it belongs to ended or expired first (last_error says so). */
  status: 'pending' | 'sent' | 'dead' | 'dropped';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

function due(q: Knex.QueryBuilder, now: string): Knex.QueryBuilder {
  return q
    .where('status', 'pending')
    .andWhere('next_attempt_at', '<=', now)
    .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now));
}

/** Claims up to `limit` due mails for `owner` until `leaseUntil`; returns the rows this owner won. */
export async function claimMail(db: Knex, owner: string, now: string, leaseUntil: string, limit: number): Promise<MailRow[]> {
  const candidates: { id: string }[] = await due(db('mail_outbox').select('id'), now).orderBy('next_attempt_at').limit(limit);
  const won: MailRow[] = [];
  for (const { id } of candidates) {
    const changed = await due(db('mail_outbox').where({ id }), now).update({ lease_owner: owner, lease_until: leaseUntil });
    if (changed === 1) won.push((await db<MailRow>('mail_outbox').where({ id }).first())!);
  }
  return won;
}

export async function markMailSent(db: Knex, id: string, owner: string, at: string): Promise<void> {
  await db('mail_outbox').where({ id, lease_owner: owner }).update({ status: 'sent', sent_at: at, lease_owner: null, lease_until: null, last_error: null });
}

/** Records a failed attempt: back to pending at `nextAttemptAt`, or 'dead' when attempts ran out. */
export async function markMailFailed(db: Knex, id: string, owner: string, error: string, nextAttemptAt: string, dead: boolean): Promise<void> {
  await db('mail_outbox')
    .where({ id, lease_owner: owner })
    .update({
      status: dead ? 'dead' : 'pending',
      attempts: db.raw('attempts + 1'),
      next_attempt_at: nextAttemptAt,
      lease_owner: null,
      lease_until: null,
      last_error: error.slice(0, 500),
    });
}

/** Takes a claimed mail out of the outbox unsent, saying why; the row stays (it still counts toward its mailbox's cap). */
export async function markMailDropped(db: Knex, id: string, owner: string, why: string): Promise<void> {
  await db('mail_outbox').where({ id, lease_owner: owner }).update({ status: 'dropped', lease_owner: null, lease_until: null, last_error: why.slice(0, 500) });
}

/**
 * Whether a mail of this watch may still go out: the watch exists and has not ended. Read
 * just before each send, so an unsubscribe or a delete that lands after the mail was queued
 * (or claimed) still stops it.
 */
export async function watchStillMails(db: Knex, watchId: string): Promise<boolean> {
  const row = await db('watches').where({ id: watchId }).first('status');
  return row !== undefined && row.status !== 'ended';
}

export async function listMail(db: Knex, scanId?: string): Promise<MailRow[]> {
  const q = db<MailRow>('mail_outbox').select('*').orderBy('created_at');
  return scanId ? q.where({ scan_id: scanId }) : q;
}
