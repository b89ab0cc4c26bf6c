/**
 * Matching responses against the versioned fingerprint data.
 */
import { FINGERPRINTS_V1_0, type MarkerSet, type VendorFingerprint } from './data/fingerprints-v1.0.ts';
import { FINGERPRINTS_V1_1 } from './data/fingerprints-v1.1.ts';
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
  bodyMaxBytes: number | undefined;
}
interface CompiledVendor { id: string; presence: CompiledSet; challenge: CompiledSet[]; deny: CompiledSet[]; rateLimit: CompiledSet[] }

function compileSet(set: MarkerSet): CompiledSet {
  return {
    statuses: set.statuses ? new Set(set.statuses) : undefined,
    headers: (set.headers ?? []).map(([name, pattern]) => [name, pattern === '' ? null : new RegExp(pattern, 'i')] as const),
    cookies: (set.cookies ?? []).map((c) => c.toLowerCase()),
    body: (set.body ?? []).map((n) => [n.toLowerCase(), n] as const),
    bodyAll: set.bodyAll?.map((n) => [n.toLowerCase(), n] as const),
    bodyMaxBytes: set.bodyMaxBytes,
  };
}

function compile(set: readonly VendorFingerprint[]): CompiledVendor[] {
  return set.map((fp) => ({ id: fp.id, presence: compileSet(fp.presence), challenge: (fp.challenge ?? []).map(compileSet), deny: (fp.deny ?? []).map(compileSet), rateLimit: (fp.rateLimit ?? []).map(compileSet) }));
}

/** Every published set, prepared at load (they are constants); another set is prepared per call. */
const COMPILED = new Map<readonly VendorFingerprint[], CompiledVendor[]>(Object.values(FINGERPRINT_SETS).map((set) => [set, compile(set)]));

/** Response header names any marker of the current set reads: all a classification depends on besides status, cookies and body. */
export const FINGERPRINT_HEADER_NAMES: readonly string[] = [...new Set(FINGERPRINTS.flatMap((fp) => [fp.presence, ...(fp.challenge ?? []), ...(fp.deny ?? []), ...(fp.rateLimit ?? [])].flatMap((m) => (m.headers ?? []).map(([n]) => n))))].sort();

/** The first marker of `set` present on `r`, described for evidence, or undefined. */
function matchSet(set: CompiledSet, r: ResponseView, lowerBody: string): string | undefined {
  if (set.statuses && !set.statuses.has(r.status)) return undefined;
  for (const [name, pattern] of set.headers) {
    const value = r.headers[name];
    if (value !== undefined && (pattern === null || pattern.test(value))) return `header ${name}: ${value}`;
  }
  for (const prefix of set.cookies) {
    const hit = r.setCookieNames.find((c) => c.toLowerCase().startsWith(prefix));
    if (hit) return `cookie ${hit}`;
  }
  const sizeOk = set.bodyMaxBytes === undefined || r.bodyBytes <= set.bodyMaxBytes;
  if (!sizeOk) return undefined;
  for (const [needle, as] of set.body) if (lowerBody.includes(needle)) return `body "${as}"`;
  if (set.bodyAll && set.bodyAll.every(([needle]) => lowerBody.includes(needle))) {
    return `body ${set.bodyAll.map(([, as]) => `"${as}"`).join(' + ')}`;
  }
  return undefined;
}

function matchAny(sets: readonly CompiledSet[], r: ResponseView, lowerBody: string): string | undefined {
  for (const s of sets) {
    const m = matchSet(s, r, lowerBody);
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
  const lowerBody = r.body.toLowerCase();
  const out: FingerprintMatch = { vendors: [], challenge: [], deny: [], rateLimit: [], presence: [] };
  for (const fp of COMPILED.get(set) ?? compile(set)) {
    const hits: Array<[VendorHit[], string | undefined]> = [
      [out.presence, matchSet(fp.presence, r, lowerBody)],
      [out.challenge, matchAny(fp.challenge, r, lowerBody)],
      [out.deny, matchAny(fp.deny, r, lowerBody)],
      [out.rateLimit, matchAny(fp.rateLimit, r, lowerBody)],
    ];
    let seen = false;
    for (const [list, marker] of hits) {
      if (marker) {
        list.push({ vendor: fp.id, marker });
        seen = true;
      }
    }
    if (seen) out.vendors.push(fp.id);
  }
  return out;
}
