// A batch's summary, pure: what each finished item contributes (its facts, taken from its
// report when it finishes) and the aggregation over all of them. Every figure is a count or is
// computed from counts and scores that the results rows (and the reports they link) carry, so
// anyone can recompute it from GET /batches/{id}/results.
import type { ScanReportBody } from '../scans/types.ts';

/**
 * What the summary needs from one report: per agent [robots blocks, edge denies on both networks, robots allows], vendors' denials,
 * and, on a site that answered some agent 402 (issue 36 item 5), each charged agent's price and the agents it served free;
 * and (since the portfolio grid) each agent's matrix verdict. Facts stored before the grid have no `m`: their cells read as not recorded.
 */
export interface ItemFacts {
  a: Record<string, [0 | 1, 0 | 1, 0 | 1]>;
  v: Record<string, number>;
  m?: Record<string, Verdict>;
  c?: { charged: Record<string, string>; free: string[] };
}

type MatrixFacts = Pick<ScanReportBody, 'matrix'>['matrix'][number];
type Offer = NonNullable<NonNullable<MatrixFacts['offers']>['networkA']>;

/** "USD 0.01 per request", "0.005 USDC", or "no readable price": the words the summary counts by. */
export function priceOf(o: Offer): string {
  if (!o.price) return 'no readable price';
  return o.scheme === 'pay-per-crawl' ? `${o.currency} ${o.price} per request` : `${o.price} ${o.currency ?? ''}`.trim();
}

function chargesOf(report: Pick<ScanReportBody, 'matrix'>): ItemFacts['c'] {
  const charged: Record<string, string> = {};
  for (const m of report.matrix) {
    const o = m.offers?.networkA ?? m.offers?.networkB;
    if (o) charged[m.ua] = priceOf(o);
  }
  if (Object.keys(charged).length === 0) return undefined;
  // Served free: every network that answered gave the page (the matrix verdicts pass or reduced-content).
  const free = report.matrix.filter((m) => !charged[m.ua] && (m.verdict === 'pass' || m.verdict === 'reduced-content')).map((m) => m.ua);
  return { charged, free };
}

export type Verdict = ScanReportBody['matrix'][number]['verdict'];

/** Edge outcomes that deny an agent: a challenge, a block, a rate limit or a login. */
export const DENIALS = new Set(['challenge', 'block', 'rate-limited', 'auth']);

export function factsOf(report: Pick<ScanReportBody, 'matrix'>): ItemFacts {
  const facts: ItemFacts = { a: {}, v: {}, m: {} };
  for (const m of report.matrix) {
    facts.m![m.ua] = m.verdict;
    const denied = m.edgeDoes !== null && DENIALS.has(m.edgeDoes.networkA) && DENIALS.has(m.edgeDoes.networkB);
    facts.a[m.ua] = [m.robotsSays === 'blocked' ? 1 : 0, denied ? 1 : 0, m.robotsSays === 'allowed' ? 1 : 0];
    if (denied) for (const vendor of m.attributedVendors) facts.v[vendor] = (facts.v[vendor] ?? 0) + 1;
  }
  const charges = chargesOf(report);
  if (charges) facts.c = charges;
  return facts;
}

/**
 * How many agents the site denies: its matrix's `denied` verdicts; for facts stored before the
 * verdicts were kept, the agents its edge denies on both networks (what those facts hold).
 */
export function deniedOf(facts: ItemFacts): number {
  if (facts.m) return Object.values(facts.m).filter((v) => v === 'denied').length;
  return Object.values(facts.a).filter(([, denies]) => denies === 1).length;
}

export interface SummaryItem {
  headline: string;
  score: number | null;
  facts: ItemFacts;
}

export interface AgentFigures {
  ua: string;
  /** Finished sites whose report has this agent. */
  sites: number;
  robotsBlocks: number;
  edgeDenies: number;
  allowedButDenied: number;
  robotsBlocksShare: number;
  edgeDeniesShare: number;
  allowedButDeniedShare: number;
}

export interface Summary {
  finished: number;
  headlines: Record<string, number>;
  score: { scored: number; mean: number; median: number; p10: number; p90: number } | null;
  agents: AgentFigures[];
  vendors: Array<{ vendor: string; denials: number; sites: number }>;
  /** Sites that charge some agent (HTTP 402), how many of them serve other agents free, and per agent who pays what. Absent when no site charges. */
  prices?: Prices;
}

export interface Prices {
  sites: number;
  chargeSomeServeOthersFree: number;
  agents: Array<{ ua: string; charged: number; servedFreeByChargingSites: number; prices: Array<{ price: string; sites: number }> }>;
  /** One sentence: "GPTBot is charged on 3 sites (USD 0.01 per request on 2); ClaudeBot and 24 more are served free by the same sites." */
  sentence: string;
}

/** count / of, to 4 decimals; 0 of nothing. */
export const share = (count: number, of: number) => (of === 0 ? 0 : Math.round((count / of) * 10_000) / 10_000);

/** Nearest rank: the smallest value with at least p % of the values at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Folds items one at a time, so a summary of 10,000 items never holds them all. */
export class SummaryBuilder {
  #finished = 0;
  readonly #headlines: Record<string, number> = {};
  readonly #scores: number[] = [];
  readonly #agents = new Map<string, [number, number, number, number]>();
  readonly #vendors = new Map<string, [number, number]>();
  #chargingSites = 0;
  #someFree = 0;
  /** ua -> [sites charging it, charging sites serving it free, price -> sites]. */
  readonly #charged = new Map<string, [number, number, Map<string, number>]>();

  add(item: SummaryItem): void {
    this.#finished++;
    this.#headlines[item.headline] = (this.#headlines[item.headline] ?? 0) + 1;
    if (item.score !== null) this.#scores.push(item.score);
    for (const [ua, [blocks, denies, allows]] of Object.entries(item.facts.a)) {
      const a = this.#agents.get(ua) ?? [0, 0, 0, 0];
      a[0]++;
      a[1] += blocks;
      a[2] += denies;
      a[3] += allows && denies ? 1 : 0;
      this.#agents.set(ua, a);
    }
    if (item.facts.c) this.#addCharges(item.facts.c);
    for (const [vendor, denials] of Object.entries(item.facts.v)) {
      const v = this.#vendors.get(vendor) ?? [0, 0];
      v[0] += denials;
      v[1]++;
      this.#vendors.set(vendor, v);
    }
  }

  #addCharges(c: NonNullable<ItemFacts['c']>): void {
    this.#chargingSites++;
    if (c.free.length) this.#someFree++;
    const entry = (ua: string) => this.#charged.get(ua) ?? (this.#charged.set(ua, [0, 0, new Map()]), this.#charged.get(ua)!);
    for (const [ua, price] of Object.entries(c.charged)) {
      const e = entry(ua);
      e[0]++;
      e[2].set(price, (e[2].get(price) ?? 0) + 1);
    }
    for (const ua of c.free) entry(ua)[1]++;
  }

  #prices(): Prices | undefined {
    if (this.#chargingSites === 0) return undefined;
    const agents = [...this.#charged].sort(([a], [b]) => a.localeCompare(b)).map(([ua, [charged, free, prices]]) => ({
      ua, charged, servedFreeByChargingSites: free,
      prices: [...prices].map(([price, sites]) => ({ price, sites })).sort((x, y) => y.sites - x.sites || x.price.localeCompare(y.price)),
    }));
    const paying = agents.filter((a) => a.charged > 0).sort((x, y) => y.charged - x.charged || x.ua.localeCompare(y.ua));
    const free = agents.filter((a) => a.charged === 0 && a.servedFreeByChargingSites > 0).map((a) => a.ua);
    const sites = (n: number) => `${n} site${n === 1 ? '' : 's'}`;
    const who = paying.slice(0, 3).map((a) => `${a.ua} on ${sites(a.charged)} (${a.prices[0]!.price}${a.prices[0]!.sites < a.charged ? ` on ${a.prices[0]!.sites}` : ''})`);
    const names = free.length > 1 ? `${free[0]} and ${free.length - 1} more` : free[0];
    const sentence = `${sites(this.#chargingSites)} charge${this.#chargingSites === 1 ? 's' : ''} some agents, ${this.#someFree} of them serving others free. Charged: ${who.join('; ')}${paying.length > 3 ? `; and ${paying.length - 3} more agents` : ''}.${names ? ` Served free wherever asked: ${names}.` : ''}`;
    return { sites: this.#chargingSites, chargeSomeServeOthersFree: this.#someFree, agents, sentence };
  }

  build(): Summary {
    const sorted = [...this.#scores].sort((x, y) => x - y);
    const sum = sorted.reduce((s, x) => s + x, 0);
    return {
      finished: this.#finished,
      headlines: Object.fromEntries(Object.entries(this.#headlines).sort(([a], [b]) => a.localeCompare(b))),
      score: sorted.length === 0 ? null : { scored: sorted.length, mean: Math.round((sum / sorted.length) * 100) / 100, median: median(sorted), p10: percentile(sorted, 10), p90: percentile(sorted, 90) },
      agents: [...this.#agents].sort(([a], [b]) => a.localeCompare(b)).map(([ua, [sites, blocks, denies, both]]) => ({
        ua, sites, robotsBlocks: blocks, edgeDenies: denies, allowedButDenied: both,
        robotsBlocksShare: share(blocks, sites), edgeDeniesShare: share(denies, sites), allowedButDeniedShare: share(both, sites),
      })),
      vendors: [...this.#vendors].sort(([a], [b]) => a.localeCompare(b)).map(([vendor, [denials, sites]]) => ({ vendor, denials, sites })),
      ...(this.#chargingSites ? { prices: this.#prices()! } : {}),
    };
  }
}
