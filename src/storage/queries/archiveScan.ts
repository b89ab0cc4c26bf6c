// The archive write: the report row, its vendors and (for site scans) the outbox mail, all in
// one transaction, so a report is never archived without its mail and a mail never points at
// a report that does not exist. A report that breaks its contract schema (ScanReport, or
// McpServerReport for MCP servers) is refused before anything is written: every public surface
// serves archived reports as they are, so one bad row would break them all for that id.
import type { Knex } from 'knex';
import { validateMcpServerReport, validateScanReport } from '../../../generated/validators.js';
import { mailboxOf } from '../mailbox.ts';
import { writeScanFiles, type ScanFile } from './scanFiles.ts';

export interface ScanRow {
  id: string;
  kind: 'site' | 'mcp-server';
  domain: string;
  headline: string;
  score: number | null;
  report: string;
  evidence: string | null;
  scanned_at: string;
  lead_name: string;
  lead_email: string;
  lead_phone: string | null;
  lead_role: string | null;
  upload_token_hash: string | null;
}

export interface OutboxMail {
  id: string;
  to_addr: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** Extra headers (a watch's List-Unsubscribe and List-Unsubscribe-Post), as JSON of name → value. */
  headers?: string | null;
}

export interface MailCap {
  /** Mails one address may receive in the 24 hours before `queuedAt`; 0 sends none. */
  perRecipientPerDay: number;
  /** The service's clock when the mail is queued (ISO 8601). */
  queuedAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Counts the mails of the last 24 hours to this address's mailbox (mailbox.ts: sub-addresses,
 * Gmail's dots and letter case folded) inside the archive transaction. On PostgreSQL an
 * advisory lock keyed on the mailbox serialises concurrent archives for one recipient across
 * instances, so two scans racing cannot both take the last slot; SQLite's single writer
 * connection already serialises them.
 */
async function underCap(trx: Knex.Transaction, mailbox: string, cap: MailCap): Promise<boolean> {
  if (cap.perRecipientPerDay <= 0) return false;
  if (trx.client.config.client === 'pg') await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`mail:${mailbox}`]);
  const since = new Date(Date.parse(cap.queuedAt) - DAY_MS).toISOString();
  const row = await mailsSince(trx, mailbox, since).first();
  return Number(row?.n ?? 0) < cap.perRecipientPerDay;
}

/** How many mails went to `mailbox` (see mailboxOf) after `since`: a range of the mail-cap index (migration 007). */
export function mailsSince(db: Knex, mailbox: string, since: string) {
  return db('mail_outbox').where('mailbox', mailbox).andWhere('created_at', '>', since).count({ n: '*' });
}

/** Thrown (and nothing written) when a report does not match its contract schema. */
export class ReportShapeError extends Error {
  override name = 'ReportShapeError';
}

function assertReportShape(row: ScanRow): void {
  const payload = JSON.parse(row.report) as Record<string, unknown>;
  // An MCP-server payload is served with `archived: true` added (scans/archive.ts), so it is judged with it.
  const [name, validate, served] = row.kind === 'site'
    ? ['ScanReport', validateScanReport, payload] as const
    : ['McpServerReport', validateMcpServerReport, { ...payload, archived: true }] as const;
  if (validate(served)) return;
  const why = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()).join('; ');
  throw new ReportShapeError(`refusing to archive report ${row.id}: it is not a valid ${name} (${why})`);
}

/**
 * Archives the scan with the files it read (robots.txt, for comparisons); with a mail, returns
 * whether it was queued (false when the cap is reached).
 */
/** `also` runs last inside the transaction (a batch item marked done with this scan); throwing there rolls everything back. */
export async function archiveScan(db: Knex, row: ScanRow, vendors: readonly string[], mail?: OutboxMail, cap?: MailCap, files: readonly ScanFile[] = [], also?: (trx: Knex.Transaction) => Promise<void>): Promise<{ mailQueued: boolean }> {
  assertReportShape(row);
  let mailQueued = false;
  await db.transaction(async (trx) => {
    await trx('scans').insert(row);
    const unique = [...new Set(vendors.map((v) => v.slice(0, 80)))];
    if (unique.length > 0) await trx('scan_vendors').insert(unique.map((vendor) => ({ scan_id: row.id, vendor })));
    await writeScanFiles(trx, row.id, files);
    const mailbox = mail ? mailboxOf(mail.to_addr) : '';
    if (mail && (await underCap(trx, mailbox, cap ?? { perRecipientPerDay: 3, queuedAt: row.scanned_at }))) {
      const now = cap?.queuedAt ?? row.scanned_at;
      // Sent to the address as typed; counted by the mailbox it reaches.
      await trx('mail_outbox').insert({
        ...mail, mailbox, scan_id: row.id, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now,
      });
      mailQueued = true;
    }
    await also?.(trx);
  });
  return { mailQueued };
}

export type QueuedMail = 'queued' | 'capped' | 'already-queued';

/**
 * Queues a mail that belongs to no new archive (a watch's confirmation or alert) under the
 * same per-recipient cap as report mails. The id is the idempotence key: queuing an id that
 * is already in the outbox changes nothing ('already-queued'), so a redelivered job mails once.
 */
export async function queueCappedMail(db: Knex, mail: OutboxMail, cap: MailCap, owner: { scanId?: string; watchId?: string }): Promise<QueuedMail> {
  return db.transaction(async (trx) => {
    if (await trx('mail_outbox').where({ id: mail.id }).first('id')) return 'already-queued';
    const mailbox = mailboxOf(mail.to_addr);
    if (!(await underCap(trx, mailbox, cap))) return 'capped';
    await trx('mail_outbox').insert({
      ...mail, mailbox, scan_id: owner.scanId ?? null, watch_id: owner.watchId ?? null, status: 'pending', attempts: 0, next_attempt_at: cap.queuedAt, created_at: cap.queuedAt,
    });
    return 'queued';
  });
}
