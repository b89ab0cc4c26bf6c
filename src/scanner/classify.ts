/**
 * Edge outcome of one response, exactly in the first-match order of
 * shared/design/verdicts.md. Vendor attribution is computed alongside and
 * never changes the outcome by presence alone.
 */
import { FINGERPRINT_HEADER_NAMES, FINGERPRINTS, matchFingerprints, type ResponseView } from './fingerprints.ts';
import type { VendorFingerprint } from './data/fingerprints-v1.0.ts';
import { paymentOffer } from './payment.ts';

export type EdgeOutcome = 'pass' | 'challenge' | 'block' | 'rate-limited' | 'auth' | 'origin-error' | 'transport-error' | 'unprobed';

/** Outcomes that say the edge turned the request away. */
export const DENIALS: ReadonlySet<EdgeOutcome> = new Set(['challenge', 'block', 'rate-limited', 'auth']);

/** Probe error codes that mean "never sent" (unprobed) rather than "sent and failed" (transport-error). */
const NOT_SENT = new Set(['UNCONFIGURED', 'DEADLINE', 'BUDGET', 'SIGNING', 'NOT_ASKED']);

export interface Classified { outcome: EdgeOutcome; vendors: string[]; markers: string[] }

export type ClassifyInput =
  | { ok: false; errorCode: string }
  | (ResponseView & { ok: true; redirects: readonly string[]; finalUrl?: string });

/** Hosts that mark the end of a redirect chain as a sign-in wall (SSO, identity providers, Vercel protection). */
const LOGIN_HOST = /^(login|signin|sso|auth|accounts|id|idp)\./i;

/**
 * A sign-in wall is where the redirects end, not where they pass: an SSO hop that hands the
 * browser back to a real page is a pass. So only the final URL's host is judged (and Vercel's
 * deployment protection, whose login lives on vercel.com itself).
 */
export function isLoginRedirect(redirects: readonly string[], finalUrl?: string): boolean {
  const last = finalUrl ?? redirects.at(-1);
  if (redirects.length === 0 || !last) return false;
  try {
    const u = new URL(last);
    return LOGIN_HOST.test(u.hostname) || (u.hostname === 'vercel.com' && u.pathname.startsWith('/login'));
  } catch {
    return false;
  }
}

/**
 * @param isHome the home page: 404/410 there is an origin error (verdicts.md rule 6).
 * @param set the fingerprint set (the current one; older sets for comparisons in tests and benchmarks).
 */
export function classifyResponse(input: ClassifyInput, isHome = true, set: readonly VendorFingerprint[] = FINGERPRINTS): Classified {
  if (!input.ok) {
    return { outcome: NOT_SENT.has(input.errorCode) ? 'unprobed' : 'transport-error', vendors: [], markers: [`error ${input.errorCode}`] };
  }
  // No set (a status-only answer, probe.ts): nothing to match, and the body is never decoded.
  const fp = set.length ? matchFingerprints(input, set) : { vendors: [], challenge: [], deny: [], rateLimit: [], presence: [] };
  const s = input.status;
  const done = (outcome: EdgeOutcome, markers: string[]): Classified => ({ outcome, vendors: fp.vendors, markers });
  const describe = (hits: { vendor: string; marker: string }[]) => hits.map((h) => `${h.vendor}: ${h.marker}`);

  if (fp.challenge.length) return done('challenge', describe(fp.challenge));
  if (s === 429 || fp.rateLimit.length) return done('rate-limited', [`status ${s}`, ...describe(fp.rateLimit)]);
  if (s === 403 || s === 406 || s === 451 || fp.deny.length) return done('block', [`status ${s}`, ...describe(fp.deny)]);
  // 402 asks for a credential too, a payment: pay per crawl, x402 or MPP (standards-2026.md §2.6).
  const offer = s === 402 ? paymentOffer(s, input.headers) : undefined;
  if (offer) return done('auth', [`status ${s}`, `payment offer: ${offer.summary}`]);
  if (s === 401 || s === 407 || isLoginRedirect(input.redirects, input.finalUrl)) return done('auth', [`status ${s}`, ...input.redirects.map((r) => `redirect ${r}`)]);
  if (s >= 500) return done('origin-error', [`status ${s}`]);
  if ((s === 404 || s === 410) && isHome) return done('origin-error', [`status ${s}`]);
  if ((s >= 200 && s < 300) || s === 304) {
    // A 2xx with nothing in it is not "a real page": undecided rather than a pass.
    if (s !== 304 && s !== 204 && input.bodyBytes === 0) return done('origin-error', [`status ${s} with an empty body`]);
    return done('pass', [`status ${s}`]);
  }
  if (s === 404 || s === 410) return done('pass', [`status ${s}`]); // a non-home resource simply absent: the edge let it through
  // Anything else (other 4xx, unfollowed 3xx, 1xx) is not one of the listed cases: undecided, never held against the site.
  return done('origin-error', [`status ${s} (unlisted)`]);
}

/** Headers a classification reads besides the fingerprints' own: the 402 offer formats. */
const PAYMENT_HEADERS = ['crawler-price', 'crawler-error', 'payment-required', 'www-authenticate'];
const KEY_HEADER_NAMES = [...new Set([...FINGERPRINT_HEADER_NAMES, ...PAYMENT_HEADERS])].sort();

/**
 * Everything the current set's classification depends on, as one string; `bodySha256` stands
 * for the body. Two responses with the same key are classified alike, so a scan classifies each
 * distinct answer once (a grid mostly receives the same home page; bench/results.md).
 */
export function classificationKey(input: ClassifyInput, isHome: boolean, bodySha256: string): string {
  if (!input.ok) return `error ${input.errorCode}`;
  // Only the headers present, as name and value: most of the names are absent from any one answer.
  const present: string[] = [];
  for (let i = 0; i < KEY_HEADER_NAMES.length; i++) {
    const value = input.headers[KEY_HEADER_NAMES[i]!];
    if (value !== undefined) present.push(KEY_HEADER_NAMES[i]!, value);
  }
  return JSON.stringify([isHome, input.status, bodySha256, input.bodyBytes, input.setCookieNames, input.redirects, input.finalUrl ?? null, present]);
}

/** A scan's memo of classifications by classificationKey (the current fingerprint set only). */
export type ClassifyMemo = Map<string, Classified>;

export function classifyOnce(memo: ClassifyMemo | undefined, input: ClassifyInput, isHome: boolean, bodySha256: string): Classified {
  if (!memo) return classifyResponse(input, isHome);
  const key = classificationKey(input, isHome, bodySha256);
  let c = memo.get(key);
  if (!c) memo.set(key, (c = classifyResponse(input, isHome)));
  // Each view gets its own arrays: evidence records are mutated (textChars) and serialised independently.
  return { outcome: c.outcome, vendors: [...c.vendors], markers: [...c.markers] };
}
