// The latest archived scan of a domain, as the badge reads it, kept for 10 s per instance.
// A badge is embedded in READMEs and dashboards and fetched far more often than a domain is
// scanned; its SQLite read was the top cost of GET /badge (bench/results.md). The entry is
// dropped as soon as this instance archives a scan of the domain (src/storage/queries/
// archiveScan.ts); a scan archived by another instance shows within 10 s (the badge itself
// may be cached 300 s by its viewers). Only hits are kept: a domain's first scan shows at once.
import type { Knex } from 'knex';
import { findLatestSiteScan } from '../storage/queries/findScan.ts';

type Latest = NonNullable<Awaited<ReturnType<typeof findLatestSiteScan>>>;

const TTL_MS = 10_000;
const MAX_DOMAINS = 1024;
const byDb = new WeakMap<Knex, Map<string, { latest: Latest; expiresAt: number }>>();

function domainsOf(db: Knex) {
  let m = byDb.get(db);
  if (!m) {
    m = new Map();
    byDb.set(db, m);
  }
  return m;
}

export async function latestSiteScanCached(db: Knex, domain: string, nowMs = Date.now()): Promise<Latest | null> {
  const domains = domainsOf(db);
  const hit = domains.get(domain);
  if (hit && hit.expiresAt > nowMs) return hit.latest;
  const latest = await findLatestSiteScan(db, domain);
  if (latest) {
    if (domains.size >= MAX_DOMAINS) domains.delete(domains.keys().next().value!);
    domains.set(domain, { latest, expiresAt: nowMs + TTL_MS });
  } else domains.delete(domain);
  return latest;
}

export function forgetLatestSiteScan(db: Knex, domain: string): void {
  byDb.get(db)?.delete(domain);
}
