/**
 * Signed A2A agent cards (A2A v1.0.0 §8.4, AgentCardSignature): each entry of `signatures` is a
 * JWS (RFC 7515) whose payload is the card without `signatures`, canonicalised with JCS
 * (RFC 8785, the `canonicalize` package), and then detached (§8.4.2). The key comes from the
 * protected header's `jku` (a JWK Set URL, matched by `kid`), a `jwks_uri` given the same way,
 * or an embedded `jwk` (RFC 7515 §4.1.3). Verified with `jose`.
 *
 * Key sets are fetched in round two like any follow-up (followups.ts: `a2a-keys:<url>`), so
 * through the guarded egress: a card names attacker-chosen hosts. Verification is async
 * (WebCrypto), so the engine runs it once after round two and the check reads its result.
 */
import canonicalize from 'canonicalize';
import { EmbeddedJWK, createLocalJWKSet, flattenedVerify, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { fileState, parseJson, type CardSignatureResult, type ScanEvidence } from './evidence.ts';

export type { CardSignatureResult };

export const A2A_CARD_PATH = '/.well-known/agent-card.json';
/** More signatures than this are not looked at (a card is not a place for hundreds). */
export const MAX_CARD_SIGNATURES = 4;
/** Asymmetric algorithms only: a signature a reader cannot verify with a public key proves nothing to it. */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];


interface RawSignature { protected?: unknown; signature?: unknown; header?: unknown }

function card(ev: ScanEvidence): Record<string, unknown> | undefined {
  const c = parseJson(ev.files[A2A_CARD_PATH]);
  return c && typeof c === 'object' && !Array.isArray(c) ? c as Record<string, unknown> : undefined;
}

function signaturesOf(c: Record<string, unknown> | undefined): RawSignature[] | undefined {
  return c && Array.isArray(c.signatures) ? (c.signatures as RawSignature[]).slice(0, MAX_CARD_SIGNATURES) : undefined;
}

function header(sig: RawSignature): JWSHeaderParameters | undefined {
  if (typeof sig?.protected !== 'string') return undefined;
  try {
    const h = JSON.parse(Buffer.from(sig.protected, 'base64url').toString('utf8')) as unknown;
    return h && typeof h === 'object' && !Array.isArray(h) ? h as JWSHeaderParameters : undefined;
  } catch {
    return undefined;
  }
}

/** The key set URL a signature names (protected header first, then its unprotected header), https only. */
function keyUrl(sig: RawSignature): { via: 'jku' | 'jwks_uri'; url: string } | undefined {
  const h = header(sig) as Record<string, unknown> | undefined;
  const u = (sig?.header && typeof sig.header === 'object' ? sig.header : {}) as Record<string, unknown>;
  for (const src of [h ?? {}, u]) {
    for (const via of ['jku', 'jwks_uri'] as const) {
      const v = src[via];
      if (typeof v !== 'string') continue;
      try {
        const url = new URL(v);
        if (url.protocol === 'https:') return { via, url: url.href };
      } catch { /* not a URL: reported as unverifiable */ }
    }
  }
  return undefined;
}

/** Round two: the key set URLs of the card's signatures, each once, in signature order. */
export function cardKeyUrls(ev: ScanEvidence): string[] {
  const sigs = signaturesOf(card(ev));
  return sigs ? [...new Set(sigs.map(keyUrl).filter((k) => k !== undefined).map((k) => k.url))] : [];
}

export const keyFollowupKey = (url: string) => `a2a-keys:${url}`;

/** Every signature of the card checked; undefined when the card carries no `signatures`. */
export async function verifyCardSignatures(ev: ScanEvidence): Promise<CardSignatureResult[] | undefined> {
  const c = card(ev);
  const sigs = signaturesOf(c);
  if (!c || !sigs) return undefined;
  const { signatures: _, ...unsigned } = c;
  // §8.4.1: the signed content is the card without `signatures`, in JCS form; the JWS payload is
  // its base64url (the detached payload is rebuilt here, not read from the card).
  const payload = Buffer.from(canonicalize(unsigned) ?? '', 'utf8').toString('base64url');
  return Promise.all(sigs.map((sig, index) => verifyOne(ev, sig, index, payload)));
}

async function verifyOne(ev: ScanEvidence, sig: RawSignature, index: number, payload: string): Promise<CardSignatureResult> {
  const h = header(sig);
  if (!h || typeof sig.signature !== 'string') return { index, outcome: 'invalid', reason: 'the signature has no readable protected header or no signature value' };
  const base = { index, ...(typeof h.alg === 'string' ? { alg: h.alg } : {}), ...(typeof h.kid === 'string' ? { kid: h.kid } : {}) };
  if (typeof h.alg !== 'string' || !ALGORITHMS.includes(h.alg)) return { ...base, outcome: 'invalid', reason: `algorithm ${String(h.alg)} is not an asymmetric JWS algorithm` };
  const jws = { protected: sig.protected as string, signature: sig.signature, payload, ...(sig.header && typeof sig.header === 'object' ? { header: sig.header as JWSHeaderParameters } : {}) };
  const named = keyUrl(sig);
  let keySource: string;
  let key: Parameters<typeof flattenedVerify>[1];
  if (named) {
    keySource = `${named.via} ${named.url}`;
    const view = ev.followups[keyFollowupKey(named.url)];
    const state = fileState(view);
    if (!view || state === 'unknown') return { ...base, keySource, outcome: 'unverifiable', reason: `the key set at ${named.url} could not be fetched` };
    const jwks = parseJson(view) as JSONWebKeySet | undefined;
    if (state === 'absent' || !jwks || !Array.isArray(jwks.keys)) return { ...base, keySource, outcome: 'invalid', reason: `${named.url} holds no JWK Set` };
    key = createLocalJWKSet(jwks);
  } else if (h.jwk) {
    keySource = 'embedded jwk';
    key = EmbeddedJWK;
  } else {
    return { ...base, outcome: 'unverifiable', reason: 'the signature names no key (no jku, jwks_uri or jwk)' };
  }
  try {
    await flattenedVerify(jws, key, { algorithms: ALGORITHMS });
    return { ...base, keySource, outcome: 'verified', reason: keySource === 'embedded jwk' ? 'verified with the key it embeds (integrity only: anyone can embed a key)' : `verified with key ${h.kid ?? '(no kid)'} from ${keySource}` };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason = code === 'ERR_JWKS_NO_MATCHING_KEY' ? `no key ${h.kid ?? '(no kid)'} in ${keySource}` : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'the signature does not match the card' : `${code ?? 'error'}: ${(err as Error).message}`;
    return { ...base, keySource, outcome: 'invalid', reason };
  }
}

/** One line for the check's detail: `signature verified`, `signature invalid` or `unsigned`, with why. */
export function signatureSummary(ev: ScanEvidence): { state: 'unsigned' | 'verified' | 'invalid' | 'unverifiable' | 'unchecked'; text: string } {
  const results = ev.a2aSignatures;
  if (!signaturesOf(card(ev))) return { state: 'unsigned', text: 'unsigned' };
  if (!results) return { state: 'unchecked', text: 'signed, signature not checked in this scan' };
  const verified = results.find((r) => r.outcome === 'verified');
  const invalid = results.filter((r) => r.outcome === 'invalid');
  const others = results.filter((r) => r !== verified).map((r) => `signature ${r.index + 1}: ${r.outcome}, ${r.reason}`);
  const rest = others.length ? ` (${others.join('; ')})` : '';
  if (verified) return { state: 'verified', text: `signature verified: ${verified.alg}, ${verified.reason}${rest}` };
  if (invalid.length) return { state: 'invalid', text: `signature invalid: ${results.map((r) => `signature ${r.index + 1} ${r.outcome}, ${r.reason}`).join('; ')}` };
  return { state: 'unverifiable', text: `signature not verified: ${results.map((r) => r.reason).join('; ')}` };
}
