// Operator statistics over archived site scans. Ephemeral scans are never archived, so they
// cannot appear here.
import type { Knex } from 'knex';

export interface Stats {
  total: number;
  byHeadline: Record<string, number>;
  byScoreBand: Record<string, number>;
  byVendor: Record<string, number>;
}

const BANDS = `CASE WHEN score IS NULL THEN 'none' WHEN score >= 90 THEN '90-100' WHEN score >= 70 THEN '70-89'
  WHEN score >= 50 THEN '50-69' ELSE '0-49' END`;

function toRecord(rows: { k: string; n: number | string }[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

export async function countStats(db: Knex): Promise<Stats> {
  const site = () => db('scans').where('kind', 'site');
  const [total] = await site().count({ n: '*' });
  const byHeadline = await site().select({ k: 'headline' }).count({ n: '*' }).groupBy('headline').orderBy('headline');
  const byBand = await site().select(db.raw(`${BANDS} as k`)).count({ n: '*' }).groupByRaw(BANDS).orderBy('k');
  const byVendor = await db('scan_vendors')
    .join('scans', 'scans.id', 'scan_vendors.scan_id')
    .where('scans.kind', 'site')
    .select({ k: 'scan_vendors.vendor' })
    .countDistinct({ n: 'scan_vendors.scan_id' })
    .groupBy('scan_vendors.vendor')
    .orderBy('scan_vendors.vendor');
  return {
    total: Number((total as { n: number | string }).n),
    byHeadline: toRecord(byHeadline as never),
    byScoreBand: toRecord(byBand as never),
    byVendor: toRecord(byVendor as never),
  };
}
