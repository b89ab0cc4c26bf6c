// A domain's earlier archived site scans, for the history on its report page. Only the date,
// headline and score leave this module: never the ids, so a report never links to a report
// someone else ran (each permalink is its owner's capability URL).
import type { Knex } from 'knex';

export interface HistoryPoint {
  scannedAt: string;
  headline: string;
  score: number | null;
}

/**
 * The `limit` most recent site scans of `domain` archived before the scan (`scannedAt`, `id`),
 * oldest first. Ties on the timestamp are broken by id, as the badge's latest-scan lookup does,
 * so the same archive always gives the same history (served by the (domain, kind, scanned_at,
 * id) index of migration 003).
 */
export async function findEarlierSiteScans(db: Knex, domain: string, before: { scannedAt: string; id: string }, limit: number): Promise<HistoryPoint[]> {
  const rows: Array<{ headline: string; score: number | string | null; scanned_at: string }> = await db('scans')
    .select('headline', 'score', 'scanned_at')
    .where({ domain, kind: 'site' })
    .andWhere((q) => {
      q.where('scanned_at', '<', before.scannedAt).orWhere((q2) => q2.where('scanned_at', '=', before.scannedAt).andWhere('id', '<', before.id));
    })
    .orderBy([{ column: 'scanned_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit);
  return rows.reverse().map((r) => ({ scannedAt: r.scanned_at, headline: r.headline, score: r.score === null ? null : Number(r.score) }));
}
