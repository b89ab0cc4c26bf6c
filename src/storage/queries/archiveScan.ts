// The archive write: the report row, its vendors and (for site scans) the outbox mail, all in
// one transaction, so a report is never archived without its mail and a mail never points at
// a report that does not exist.
import type { Knex } from 'knex';
import { forgetLatestSiteScan } from '../../report/badge-cache.ts';

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
}

export async function archiveScan(db: Knex, row: ScanRow, vendors: readonly string[], mail?: OutboxMail): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('scans').insert(row);
    const unique = [...new Set(vendors.map((v) => v.slice(0, 80)))];
    if (unique.length > 0) await trx('scan_vendors').insert(unique.map((vendor) => ({ scan_id: row.id, vendor })));
    if (mail) {
      const now = row.scanned_at;
      await trx('mail_outbox').insert({
        ...mail, scan_id: row.id, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now,
      });
    }
  });
  // The badge of this domain now shows this scan (src/report/badge-cache.ts).
  if (row.kind === 'site') forgetLatestSiteScan(db, row.domain);
}
