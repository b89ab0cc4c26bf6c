// The per-instance read caches of the public reads, built once in the composition root
// (src/services.ts) and dropped by the service layer when what they hold changes:
//   - rendered report pages, 30 s: a permalink shared in a chat or a README gets many
//     identical views, and loading, parsing and rendering the row was the whole cost of GET /r
//     (bench/results.md). Dropped when this instance attaches a CLI vantage; an attach through
//     another instance shows within 30 s (the response itself may be cached 60 s by browsers);
//   - a domain's latest archived scan for its badge, 10 s: badges are fetched far more often
//     than domains are scanned. Dropped when this instance archives a scan of the domain; one
//     archived elsewhere shows within 10 s. Only hits are kept, so a first scan shows at once;
//   - drawn badge SVGs by their text, which never change;
//   - the badge path's domain as normalised (the WHATWG URL parser, per request before),
//     for names of up to 253 characters: a pure function of the text.
// Pages and badges are kept as Buffers: express encodes a string body of 1,000 characters or
// more into a new Buffer on every send, a sixth of a cached GET /r in the profile. A page keeps its
// br and gzip forms too, each made on first demand (encoded-body.ts).
// All are bounded LRU caches (lru-cache), so a burst of distinct ids cannot grow them.
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { normalizeDomain, type NormalizeResult } from '../net/domain.ts';
import { findLatestSiteScan } from '../storage/queries/findScan.ts';
import { EncodedBody } from './encoded-body.ts';

type LatestRow = Omit<NonNullable<Awaited<ReturnType<typeof findLatestSiteScan>>>, 'report'>;
/** The latest archived scan of a domain, with the rubric that scored it and its Last-Modified header value computed once. */
export type Latest = LatestRow & { rubric: string | null; lastModified: string };

/** The rubric an archived report names (versions.rubric, else its score's); null when it names none. */
function rubricOfReport(text: string): string | null {
  try {
    const r = JSON.parse(text) as { versions?: { rubric?: unknown }; score?: { rubricVersion?: unknown } };
    const v = r.versions?.rubric ?? r.score?.rubricVersion;
    return typeof v === 'string' && /^rubric-v[0-9][0-9a-z.-]{0,30}$/.test(v) ? v : null;
  } catch {
    return null;
  }
}

export class ReadCaches {
  readonly #db: Knex;
  readonly #pages = new LRUCache<string, EncodedBody>({ max: 256, ttl: 30_000 });
  readonly #latest = new LRUCache<string, Latest>({ max: 1024, ttl: 10_000 });
  readonly badges = new LRUCache<string, Buffer>({ max: 512 });
  readonly #domains = new LRUCache<string, NormalizeResult>({ max: 1024 });
  /** Bodies that never change while the process runs (the home page, the documents, the contract, the catalogs, the stylesheet), by name. */
  readonly #fixed = new Map<string, EncodedBody>();

  constructor(db: Knex) {
    this.#db = db;
  }

  reportPage(scanId: string): EncodedBody | undefined {
    return this.#pages.get(scanId.toLowerCase());
  }

  /** Keeps a rendered page and returns it encoded, as it is sent (compressed on first demand). */
  rememberReportPage(scanId: string, html: string): EncodedBody {
    const body = new EncodedBody(html);
    this.#pages.set(scanId.toLowerCase(), body);
    return body;
  }

  /**
   * The body named `name`, built on first request and kept for the life of the process. Only for
   * bodies that depend on nothing but the instance's configuration; the names are the handlers'
   * own constants, so the map stays as small as their number.
   */
  fixed(name: string, build: () => string | Buffer): EncodedBody {
    let body = this.#fixed.get(name);
    if (!body) {
      body = new EncodedBody(build());
      this.#fixed.set(name, body);
    }
    return body;
  }

  forgetReportPage(scanId: string): void {
    this.#pages.delete(scanId.toLowerCase());
  }

  /** normalizeDomain(raw), remembered. */
  badgeDomain(raw: string): NormalizeResult {
    if (raw.length > 253) return normalizeDomain(raw);
    let n = this.#domains.get(raw);
    if (n === undefined) {
      n = normalizeDomain(raw);
      this.#domains.set(raw, n);
    }
    return n;
  }

  /** The cached latest scan of a domain, if there is one, without waiting. */
  cachedLatestSiteScan(domain: string): Latest | undefined {
    return this.#latest.get(domain);
  }

  async latestSiteScan(domain: string): Promise<Latest | null> {
    const hit = this.#latest.get(domain);
    if (hit) return hit;
    const row = await findLatestSiteScan(this.#db, domain);
    if (!row) {
      this.#latest.delete(domain);
      return null;
    }
    const { report, ...rest } = row;
    // The badge names the rubric that scored the report; read once per cache fill, not per request.
    const latest = { ...rest, rubric: rubricOfReport(report), lastModified: new Date(row.scanned_at).toUTCString() };
    this.#latest.set(domain, latest);
    return latest;
  }

  forgetLatestSiteScan(domain: string): void {
    this.#latest.delete(domain);
  }

  clear(): void {
    this.#pages.clear();
    this.#latest.clear();
    this.badges.clear();
    this.#domains.clear();
    this.#fixed.clear();
  }
}
