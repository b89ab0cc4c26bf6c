/**
 * One probe through one egress, turned into an evidence record plus the
 * decoded body, and the politeness machinery around it: a per-network
 * concurrency bound, a per-scan request budget and the whole-scan deadline.
 * A probe that never starts (deadline or budget spent, network unconfigured)
 * is recorded as `unprobed`, never as a failure of the site.
 */
import { hash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Egress, ProbeResult } from '../net/egress.ts';
import { classifyOnce, classifyResponse, type ClassifyMemo, type EdgeOutcome } from './classify.ts';
import type { VendorFingerprint } from './data/fingerprints-v1.0.ts';
import { analyzePage, quickTitle } from './page.ts';
import { digestOf, type PageDigest } from './page-digest.ts';
import { curlCommand } from './replay.ts';
import { headerValue, withAccept, type HeaderList } from './roster.ts';
import type { EvidenceRecord, FetchedView, NetworkName } from './types.ts';

/** Headers kept in evidence: what a human needs to re-derive a verdict, nothing volatile (no Date). */
const KEY_HEADERS = [
  'server', 'content-type', 'content-language', 'location', 'retry-after', 'www-authenticate', 'vary', 'link',
  'x-robots-tag', 'content-signal', 'content-usage', 'tdm-reservation', 'tdm-policy',
  'cf-mitigated', 'cf-cache-status', 'x-vercel-mitigated', 'x-amzn-waf-action', 'x-datadome', 'x-dd-b',
  'x-iinfo', 'x-cdn', 'x-sucuri-block', 'x-sucuri-id', 'x-served-by', 'x-sigsci-agentresponse', 'via', 'x-cache',
  'akamai-cache-status', 'x-kpsdk-ct', 'x-blocked-by-waf', 'x-markdown-tokens',
  'crawler-price', 'crawler-charged', 'crawler-error', 'payment-required', 'accept-signature',
  // Agent-serving edge products that document a response header (content.ts AGENT_SERVING).
  'x-edgeoptimize-request-id',
];

/** Enough for any home page worth reading and to tell a 100k-character llms.txt; never buffered past it. */
export const DEFAULT_MAX_BODY = 256 * 1024;

export interface ProbeSpec {
  key: string;
  network: NetworkName;
  url: string;
  userAgent: string;
  /**
   * The whole request as the agent (or the browser control) sends it, in order and case
   * (roster.ts). Its User-Agent must be `userAgent`; `accept`, when given, replaces its Accept in place.
   */
  arrival?: HeaderList;
  accept?: string;
  /** The home page: 404/410 there is an origin error. */
  isHome: boolean;
  maxBodyBytes?: number;
  /** Headers beyond the fixed set. */
  headers?: Record<string, string>;
  /**
   * Signs each hop as it is sent (Web Bot Auth): called by the egress per hop, so no two requests
   * share a signature or nonce. The evidence records the first hop's headers, as curl would repeat it.
   */
  sign?: (url: string) => Promise<Record<string, string>>;
  /**
   * Keep the body once judged (default). Grid answers need only their outcome and text length,
   * so they let it go at once: a scan then holds a few bodies, not seventy (bench/results.md).
   * A function decides by the body's SHA-256, so that of many identical answers (robots.txt as
   * each agent) only one is ever decoded and kept; it is told the answer's outcome too.
   */
  keepBody?: boolean | ((bodySha256: string, outcome: EdgeOutcome, bodyBytes: number) => boolean);
  /**
   * The answer is not the site's and not a page: a DNS message from the resolver (dns-lookups.ts).
   * It is judged by its status alone, with no vendor fingerprints (the resolver's edge is not the
   * site's) and no title or text read from a binary body. Reading it as a page was two thirds of
   * the lookups' own JavaScript (bench/results.md, "The DNS discovery lookups' own share").
   */
  statusOnly?: boolean;
}

export interface ProbeContext {
  timeoutMs: number;
  signal: AbortSignal;
  budget: { remaining: number };
  /** This scan's classifications by content: identical answers are classified once. */
  classified?: ClassifyMemo;
  /** This scan's visible-text lengths by body SHA-256: each distinct page is parsed once. */
  textBySha?: Map<string, number>;
  /** This scan's page titles by body SHA-256, so a repeated answer is never decoded. */
  titleBySha?: Map<string, string>;
  /** Bodies kept by SHA-256: identical answers kept (the same refusal to many agents) share one string. */
  bodyBySha?: Map<string, string>;
  /** This scan's home-page digests by body SHA-256 (page-digest.ts): one per distinct page. */
  digestBySha?: Map<string, PageDigest>;
}

/** What toView may share across one scan's answers. */
export type ScanMemo = Pick<ProbeContext, 'classified' | 'textBySha' | 'titleBySha' | 'bodyBySha' | 'digestBySha'>;

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * Every header a probe sends, in the order and case sent (an object keeps its string keys in
 * insertion order, and the egress hands them to undici as they are). The HTTP client writes
 * `host` and `connection: keep-alive` first; test/net/header-order.test.ts reads the bytes.
 */
export function requestHeadersFor(spec: Pick<ProbeSpec, 'userAgent' | 'accept' | 'headers' | 'arrival'>): Record<string, string> {
  const base: HeaderList = spec.arrival
    ? withAccept(spec.arrival, spec.accept)
    : [['user-agent', spec.userAgent], ['accept', spec.accept ?? DEFAULT_ACCEPT], ['accept-language', 'en-US,en;q=0.9'], ['accept-encoding', 'gzip, deflate, br']];
  const out: Record<string, string> = {};
  for (const [name, value] of base) out[name] = value;
  return spec.headers ? Object.assign(out, spec.headers) : out;
}

function sharedBody(memo: ScanMemo, sha: string, text: () => string): string {
  if (!memo.bodyBySha) return text();
  let body = memo.bodyBySha.get(sha);
  if (body === undefined) memo.bodyBySha.set(sha, (body = text()));
  return body;
}

/** One-shot hashing: a Hash object per call cost more than hashing a small body. */
function sha256(data: string | Buffer): string {
  return hash('sha256', data, 'hex');
}

/** No vendor fingerprints: a status-only answer is judged by the rules of verdicts.md alone. */
const NO_VENDORS: readonly VendorFingerprint[] = [];

export function toView(spec: ProbeSpec, result: ProbeResult | { ok: false; errorCode: string; message: string; redirects: string[]; timingMs: number }, memo: ScanMemo = {}): FetchedView {
  const sent = requestHeadersFor(spec);
  // What Accept went out ('' when the agent sends none, as PerplexityBot does).
  const accept = spec.arrival ? (headerValue(Object.entries(sent), 'accept') ?? '') : (spec.accept ?? DEFAULT_ACCEPT);
  // The body is decoded to a string only when something reads it: a grid answer identical to one
  // this scan has already judged (most of them) is hashed and dropped, never copied into the heap.
  let decoded: string | undefined;
  const bodyText = (): string => (decoded ??= result.ok ? result.body.toString('utf8') : '');
  const headers: Record<string, string> = {};
  if (result.ok) for (const h of KEY_HEADERS) if (result.headers[h] !== undefined) headers[h] = result.headers[h]!;
  const bodySha256 = sha256(result.ok ? result.body : Buffer.alloc(0));
  const input = result.ok
    ? { ok: true as const, status: result.status, headers: result.headers, setCookieNames: result.setCookieNames, get body() { return bodyText(); }, bodyBytes: result.body.length, redirects: result.redirects, finalUrl: result.finalUrl }
    : { ok: false as const, errorCode: result.errorCode };
  const classified = spec.statusOnly ? classifyResponse(input, false, NO_VENDORS) : classifyOnce(memo.classified, input, spec.isHome, bodySha256);
  let title = '';
  if (result.ok && !spec.statusOnly) {
    const known = memo.titleBySha?.get(bodySha256);
    title = known ?? quickTitle(bodyText());
    if (known === undefined) memo.titleBySha?.set(bodySha256, title);
  }
  // The visible text the verdicts compare, measured on arrival so the body can go (see keepBody).
  let textChars = 0;
  let digest: PageDigest | undefined;
  if (classified.outcome === 'pass' && spec.isHome && result.ok) {
    // A home page: its digest (title, canonical, text sketch, gate wording) comes from the same
    // parse that measures its text, so the page can be compared with the browser's once its body is gone.
    digest = memo.digestBySha?.get(bodySha256);
    if (!digest) {
      const body = bodyText();
      digest = digestOf(analyzePage(body), body, result.finalUrl);
      memo.digestBySha?.set(bodySha256, digest);
    }
    textChars = digest.textChars;
  } else if (classified.outcome === 'pass' && !spec.statusOnly) {
    const known = memo.textBySha?.get(bodySha256);
    textChars = known ?? analyzePage(bodyText()).text.length;
    if (known === undefined) memo.textBySha?.set(bodySha256, textChars);
  }
  let host = '';
  try { host = new URL(spec.url).host; } catch { /* recorded as sent: the egress refused it */ }
  const requestHeaders = { host, ...sent };
  const base = {
    network: spec.network, key: spec.key, url: spec.url, userAgent: spec.userAgent, accept,
    method: 'GET', requestHeaders, curl: curlCommand('GET', spec.url, requestHeaders),
    status: result.ok ? result.status : 0,
    errorCode: result.ok ? null : result.errorCode,
    errorMessage: result.ok ? null : result.message,
    headers, setCookieNames: result.ok ? [...result.setCookieNames].sort() : [],
    bodySha256,
    bodyBytes: result.ok ? result.body.length : 0,
    bodyTruncated: result.ok ? result.bodyTruncated : false,
    title,
    textChars,
    redirects: result.redirects,
    finalUrl: result.ok ? result.finalUrl : spec.url,
    outcome: classified.outcome, vendors: classified.vendors, markers: classified.markers,
  };
  // The id hashes what was asked and what came back, never timing, so a re-run against the same site gives the same id.
  const id = `ev_${sha256(JSON.stringify([base.network, base.key, base.url, base.userAgent, base.accept, base.status, base.errorCode, base.bodySha256, base.finalUrl])).slice(0, 24)}`;
  const record: EvidenceRecord = { id, ...base, timingMs: result.timingMs };
  const keep = typeof spec.keepBody === 'function' ? spec.keepBody(bodySha256, classified.outcome, result.ok ? result.body.length : 0) : spec.keepBody !== false;
  const view: FetchedView = { record, ok: result.ok, status: base.status, headers: result.ok ? result.headers : {}, contentType: (result.ok ? result.headers['content-type'] : '') ?? '', body: keep ? sharedBody(memo, bodySha256, bodyText) : '', outcome: classified.outcome };
  if (digest) view.digest = digest;
  return view;
}

/**
 * The politeness bound: at most `limit` requests in flight to one site from one network,
 * shared by every scan of that site (p-limit). The hand-written FIFO queue it replaces could
 * admit one more than its bound when a released slot raced a newcomer.
 */
export type Limiter = LimitFunction;

export function createLimiter(limit: number): Limiter {
  return pLimit(Math.max(1, limit));
}

/** Run one probe under the limiter, the budget and the deadline. */
export async function runProbe(egress: Egress, limiter: Limiter, spec: ProbeSpec, ctx: ProbeContext): Promise<FetchedView> {
  const notSent = (errorCode: string, message: string) => toView(spec, { ok: false, errorCode, message, redirects: [], timingMs: 0 });
  if (!egress.configured) return notSent('UNCONFIGURED', `${spec.network} is not configured`);
  return limiter(async () => {
    if (ctx.signal.aborted) return notSent('DEADLINE', 'the scan deadline passed before this request started');
    if (ctx.budget.remaining <= 0) return notSent('BUDGET', 'the per-scan request budget was spent');
    ctx.budget.remaining--;
    let firstHop: Record<string, string> | undefined;
    const sign = spec.sign;
    const result = await egress.fetch({
      url: spec.url,
      headers: requestHeadersFor(spec),
      timeoutMs: ctx.timeoutMs,
      maxBodyBytes: spec.maxBodyBytes ?? DEFAULT_MAX_BODY,
      maxRedirects: 5,
      signal: ctx.signal,
      ...(sign ? { signFor: async (url: string) => { const h = await sign(url); firstHop ??= h; return h; } } : {}),
    });
    return toView(firstHop ? { ...spec, headers: { ...spec.headers, ...firstHop } } : spec, result, ctx);
  });
}
