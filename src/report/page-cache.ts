// Rendered report pages, kept briefly. A report is immutable once archived except for the
// one CLI-vantage attach, so a permalink shared in a chat or a README gets many identical
// views; loading the row (the report and its evidence as JSON text), parsing and rendering
// it again for each was the whole cost of GET /r (bench/results.md). Pages are kept for
// 30 s at most (the response itself may be cached 60 s by the browser), bounded, per
// database, and dropped at once when this instance attaches a CLI vantage; an attach made
// through another instance shows within 30 s.
import type { Knex } from 'knex';

const TTL_MS = 30_000;
const MAX_PAGES = 256;

interface Entry { html: string; expiresAt: number }
const byDb = new WeakMap<Knex, Map<string, Entry>>();

function pagesOf(db: Knex): Map<string, Entry> {
  let pages = byDb.get(db);
  if (!pages) {
    pages = new Map();
    byDb.set(db, pages);
  }
  return pages;
}

export function cachedReportPage(db: Knex, scanId: string, nowMs = Date.now()): string | undefined {
  const pages = pagesOf(db);
  const hit = pages.get(scanId);
  if (!hit) return undefined;
  if (hit.expiresAt <= nowMs) {
    pages.delete(scanId);
    return undefined;
  }
  return hit.html;
}

export function rememberReportPage(db: Knex, scanId: string, html: string, nowMs = Date.now()): void {
  const pages = pagesOf(db);
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  pages.set(scanId, { html, expiresAt: nowMs + TTL_MS });
}

export function forgetReportPage(db: Knex, scanId: string): void {
  pagesOf(db).delete(scanId.toLowerCase());
}
