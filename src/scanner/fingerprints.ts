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

/** The first marker of `set` present on `r`, described for evidence, or undefined. */
function matchSet(set: MarkerSet, r: ResponseView, lowerBody: string): string | undefined {
  if (set.statuses && !set.statuses.includes(r.status)) return undefined;
  for (const [name, pattern] of set.headers ?? []) {
    const value = r.headers[name];
    if (value !== undefined && (pattern === '' || new RegExp(pattern, 'i').test(value))) return `header ${name}: ${value}`;
  }
  for (const prefix of set.cookies ?? []) {
    const hit = r.setCookieNames.find((c) => c.toLowerCase().startsWith(prefix.toLowerCase()));
    if (hit) return `cookie ${hit}`;
  }
  const sizeOk = set.bodyMaxBytes === undefined || r.bodyBytes <= set.bodyMaxBytes;
  if (set.body && sizeOk) {
    for (const needle of set.body) if (lowerBody.includes(needle.toLowerCase())) return `body "${needle}"`;
  }
  if (set.bodyAll && sizeOk && set.bodyAll.every((needle) => lowerBody.includes(needle.toLowerCase()))) {
    return `body ${set.bodyAll.map((n) => `"${n}"`).join(' + ')}`;
  }
  return undefined;
}

function matchAny(sets: readonly MarkerSet[] | undefined, r: ResponseView, lowerBody: string): string | undefined {
  for (const s of sets ?? []) {
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
  for (const fp of set) {
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
