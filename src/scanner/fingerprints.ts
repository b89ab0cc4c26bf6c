/**
 * Matching responses against the versioned fingerprint data.
 */
import { FINGERPRINTS_V1_0, type MarkerSet, type VendorFingerprint } from './data/fingerprints-v1.0.ts';
import { FINGERPRINTS_V1_1 } from './data/fingerprints-v1.1.ts';
import { FINGERPRINTS_V1_2 } from './data/fingerprints-v1.2.ts';
import { compileRendered, matchRendered, pageViews, wordIndex, type PageViews, type RenderedMarkers, type WordIndex } from './rendered.ts';
import { FINGERPRINTS_VERSION } from './versions.ts';

export interface ResponseView {
  status: number;
  headers: Readonly<Record<string, string>>;
  setCookieNames: readonly string[];
  body: string;
  bodyBytes: number;
}

export interface VendorHit { vendor: string; marker: string }

/** Every set a report may name in `versions.fingerprints`; the current one judges new scans. */
export const FINGERPRINT_SETS: Readonly<Record<string, readonly VendorFingerprint[]>> = {
  'fingerprints-v1.0': FINGERPRINTS_V1_0,
  'fingerprints-v1.1': FINGERPRINTS_V1_1,
  'fingerprints-v1.2': FINGERPRINTS_V1_2,
};

export const FINGERPRINTS: readonly VendorFingerprint[] = FINGERPRINT_SETS[FINGERPRINTS_VERSION]!;

/** A vendor's display name; ids of older sets still resolve, so archived reports keep their names. */
export function vendorName(id: string): string {
  return FINGERPRINTS.find((f) => f.id === id)?.name ?? FINGERPRINTS_V1_0.find((f) => f.id === id)?.name ?? id;
}

/**
 * A marker set prepared once: regexes compiled and needles lower-cased, so matching a response
 * only scans it. Compiling per call was most of a scan's classification cost (bench/results.md).
 */
interface CompiledSet {
  statuses: ReadonlySet<number> | undefined;
  headers: ReadonlyArray<readonly [name: string, pattern: RegExp | null]>;
  cookies: readonly string[];
  body: ReadonlyArray<readonly [lower: string, as: string]>;
  bodyAll: ReadonlyArray<readonly [lower: string, as: string]> | undefined;
  /** Markers on the page as a browser renders it (fingerprints-v1.2 on). */
  rendered: RenderedMarkers | undefined;
  bodyMaxBytes: number | undefined;
}
interface CompiledVendor { id: string; presence: CompiledSet; challenge: CompiledSet[]; deny: CompiledSet[]; rateLimit: CompiledSet[] }

function compileSet(set: MarkerSet): CompiledSet {
  return {
    rendered: compileRendered(set),
    statuses: set.statuses ? new Set(set.statuses) : undefined,
    headers: (set.headers ?? []).map(([name, pattern]) => [name, pattern === '' ? null : new RegExp(pattern, 'i')] as const),
    cookies: (set.cookies ?? []).map((c) => c.toLowerCase()),
    body: (set.body ?? []).map((n) => [n.toLowerCase(), n] as const),
    bodyAll: set.bodyAll?.map((n) => [n.toLowerCase(), n] as const),
    bodyMaxBytes: set.bodyMaxBytes,
  };
}

interface CompiledFingerprints { vendors: CompiledVendor[]; words: WordIndex }

function compile(set: readonly VendorFingerprint[]): CompiledFingerprints {
  const vendors = set.map((fp) => ({ id: fp.id, presence: compileSet(fp.presence), challenge: (fp.challenge ?? []).map(compileSet), deny: (fp.deny ?? []).map(compileSet), rateLimit: (fp.rateLimit ?? []).map(compileSet) }));
  const rendered = vendors.flatMap((v) => [v.presence, ...v.challenge, ...v.deny, ...v.rateLimit]).flatMap((s) => (s.rendered ? [s.rendered] : []));
  return { vendors, words: wordIndex(rendered) };
}

/** Every published set, prepared at load (they are constants); another set is prepared per call. */
const COMPILED = new Map<readonly VendorFingerprint[], CompiledFingerprints>(Object.values(FINGERPRINT_SETS).map((set) => [set, compile(set)]));

/** Response header names any marker of the current set reads: all a classification depends on besides status, cookies and body. */
export const FINGERPRINT_HEADER_NAMES: readonly string[] = [...new Set(FINGERPRINTS.flatMap((fp) => [fp.presence, ...(fp.challenge ?? []), ...(fp.deny ?? []), ...(fp.rateLimit ?? [])].flatMap((m) => (m.headers ?? []).map(([n]) => n))))].sort();

/**
 * The first marker of `set` present on `r`, described for evidence, or undefined.
 * Indexed loops, no tuple destructuring: this runs for every vendor's every marker set on
 * each distinct answer, and destructuring allocated an iterator per marker (bench/results.md).
 */
function matchSet(set: CompiledSet, r: ResponseView, views: PageViews): string | undefined {
  if (set.statuses && !set.statuses.has(r.status)) return undefined;
  for (let i = 0; i < set.headers.length; i++) {
    const header = set.headers[i]!;
    const value = r.headers[header[0]];
    if (value !== undefined && (header[1] === null || header[1].test(value))) return `header ${header[0]}: ${value}`;
  }
  for (let i = 0; i < set.cookies.length; i++) {
    const prefix = set.cookies[i]!;
    for (let j = 0; j < r.setCookieNames.length; j++) {
      const name = r.setCookieNames[j]!;
      if (name.toLowerCase().startsWith(prefix)) return `cookie ${name}`;
    }
  }
  if (set.bodyMaxBytes !== undefined && r.bodyBytes > set.bodyMaxBytes) return undefined;
  if (set.rendered) {
    const m = matchRendered(set.rendered, views);
    if (m) return m;
  }
  if (set.body.length === 0 && !set.bodyAll) return undefined;
  const body = views.lower();
  for (let i = 0; i < set.body.length; i++) if (body.includes(set.body[i]![0])) return `body "${set.body[i]![1]}"`;
  if (set.bodyAll && set.bodyAll.every((n) => body.includes(n[0]))) {
    return `body ${set.bodyAll.map((n) => `"${n[1]}"`).join(' + ')}`;
  }
  return undefined;
}

function matchAny(sets: readonly CompiledSet[], r: ResponseView, views: PageViews): string | undefined {
  for (let i = 0; i < sets.length; i++) {
    const m = matchSet(sets[i]!, r, views);
    if (m) return m;
  }
  return undefined;
}

export interface FingerprintMatch {
  /** Vendors seen on the response (presence or mitigation), in fingerprint order. */
  vendors: string[];
  challenge: VendorHit[];
  deny: VendorHit[];
  rateLimit: VendorHit[];
  presence: VendorHit[];
}

export function matchFingerprints(r: ResponseView, set: readonly VendorFingerprint[] = FINGERPRINTS): FingerprintMatch {
  // Lower-cased or rendered once, and only if some marker set reads the body.
  const compiled = COMPILED.get(set) ?? compile(set);
  const views = pageViews(r.body, compiled.words);
  const out: FingerprintMatch = { vendors: [], challenge: [], deny: [], rateLimit: [], presence: [] };
  const vendors = compiled.vendors;
  for (let i = 0; i < vendors.length; i++) {
    const fp = vendors[i]!;
    const presence = matchSet(fp.presence, r, views);
    const challenge = matchAny(fp.challenge, r, views);
    const deny = matchAny(fp.deny, r, views);
    const rateLimit = matchAny(fp.rateLimit, r, views);
    if (presence) out.presence.push({ vendor: fp.id, marker: presence });
    if (challenge) out.challenge.push({ vendor: fp.id, marker: challenge });
    if (deny) out.deny.push({ vendor: fp.id, marker: deny });
    if (rateLimit) out.rateLimit.push({ vendor: fp.id, marker: rateLimit });
    if (presence || challenge || deny || rateLimit) out.vendors.push(fp.id);
  }
  return out;
}
