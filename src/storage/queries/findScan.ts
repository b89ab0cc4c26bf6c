// Reads of archived scans. Callers get the row as stored; mapping to public shapes (which
// never include the lead or the token hash) happens in src/scans/archive.ts.
import type { Knex } from 'knex';
import type { ScanRow } from './archiveScan.ts';

export async function findScan(db: Knex, id: string): Promise<ScanRow | null> {
  const row = await db<ScanRow>('scans').where({ id }).first();
  return row ?? null;
}

/** The most recent archived site scan of a domain (for the badge). */
export async function findLatestSiteScan(db: Knex, domain: string): Promise<Pick<ScanRow, 'id' | 'headline' | 'score' | 'scanned_at' | 'report'> | null> {
  const row = await db('scans')
    .select('id', 'headline', 'score', 'scanned_at', 'report')
    .where({ domain, kind: 'site' })
    .orderBy([{ column: 'scanned_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first();
  return row ?? null;
}
