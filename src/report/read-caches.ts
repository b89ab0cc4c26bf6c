// The per-instance read caches of the public reads, built once in the composition root
// (src/services.ts) and dropped by the service layer when what they hold changes:
//   - rendered report pages, 30 s: a permalink shared in a chat or a README gets many
//     identical views, and loading, parsing and rendering the row was the whole cost of GET /r
//     (bench/results.md). Dropped when this instance attaches a CLI vantage; an attach through
//     another instance shows within 30 s (the response itself may be cached 60 s by browsers);
//   - a domain's latest archived scan for its badge, 10 s: badges are fetched far more often
//     than domains are scanned. Dropped when this instance archives a scan of the domain; one
//     archived elsewhere shows within 10 s. Only hits are kept, so a first scan shows at once;
//   - drawn badge SVGs by their text, which never change.
// All are bounded LRU caches (lru-cache), so a burst of distinct ids cannot grow them.
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { findLatestSiteScan } from '../storage/queries/findScan.ts';

type Latest = NonNullable<Awaited<ReturnType<typeof findLatestSiteScan>>>;

export class ReadCaches {
  readonly #db: Knex;
  readonly #pages = new LRUCache<string, string>({ max: 256, ttl: 30_000 });
  readonly #latest = new LRUCache<string, Latest>({ max: 1024, ttl: 10_000 });
  readonly badges = new LRUCache<string, string>({ max: 512 });

  constructor(db: Knex) {
    this.#db = db;
  }

  reportPage(scanId: string): string | undefined {
    return this.#pages.get(scanId.toLowerCase());
  }

  rememberReportPage(scanId: string, html: string): void {
    this.#pages.set(scanId.toLowerCase(), html);
  }

  forgetReportPage(scanId: string): void {
    this.#pages.delete(scanId.toLowerCase());
  }

  async latestSiteScan(domain: string): Promise<Latest | null> {
    const hit = this.#latest.get(domain);
    if (hit) return hit;
    const latest = await findLatestSiteScan(this.#db, domain);
    if (latest) this.#latest.set(domain, latest);
    else this.#latest.delete(domain);
    return latest;
  }

  forgetLatestSiteScan(domain: string): void {
    this.#latest.delete(domain);
  }

  clear(): void {
    this.#pages.clear();
    this.#latest.clear();
    this.badges.clear();
  }
}
