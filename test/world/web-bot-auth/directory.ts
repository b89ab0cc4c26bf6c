// Resolving a Signature-Agent URL to keys, strictly, as draft-ietf-webbotauth-httpsig-protocol-01
// §5.5 and Appendix B.1 describe (sections below are the draft's unless marked):
//
//   - the member URL is fetched as sent, over HTTPS, through the world, never following a redirect
//     (§5.5 "MUST NOT automatically follow HTTP redirects"), and only a 200 counts;
//   - at the well-known URI the media type is application/http-message-signatures-directory+json
//     (§5.5.1); the body is a JWK Set (RFC 7517 §5) of Ed25519 keys whose kid, when present, is the
//     RFC 7638 thumbprint (§5.5), with no private member and no alg outside the HTTP Signature
//     Algorithms registry (§5.5.1), a bounded size and key count (§6.7);
//   - the response carries an RFC 9530 Content-Digest that matches the body and, per key, a signature
//     tagged http-message-signatures-directory over ("@authority";req "content-digest") whose created
//     is not in the future and whose expires has not passed (Appendix B.1). This site accepts only
//     keys so proven: stricter than the draft (which lets a verifier use an unproven key it resolved
//     itself), because it is how this test world shows that our directory's own signature holds.
import type { KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { isInnerList, type InnerList } from 'structured-headers';
import { componentsOf, dictionary, ed25519Verifies, publicKeyOf, Refusal, seconds, signatureBase, signatureBytes, thumbprint, unverified, type Ed25519Jwk } from './base.ts';
import { SKEW_S } from './verify.ts';

export const WELL_KNOWN_PATH = '/.well-known/http-message-signatures-directory';
export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';
/** §6.7: bound what an untrusted Signature-Agent can make us read. */
export const MAX_DIRECTORY_BYTES = 64 * 1024;
export const MAX_KEYS = 16;
/** RFC 9421 §6.2 (the HTTP Signature Algorithms registry): the only alg an Ed25519 key may carry. */
const ED25519_ALG = 'ed25519';

export interface FetchedDirectory { status: number; headers: Record<string, string>; body: Buffer }
/** One GET with no redirect followed; a rejection (or an error value) is a discovery failure. */
export type DirectoryFetch = (url: string) => Promise<FetchedDirectory | { error: string }>;

export interface ResolvedDirectory { keys: Map<string, KeyObject>; maxAgeS: number }

const refuse = (reason: string, detail: string) => unverified(reason, `directory: ${detail}`);

function jwkOf(raw: unknown): Ed25519Jwk & { kid?: string } {
  const k = raw as Record<string, unknown>;
  if (!k || typeof k !== 'object') throw refuse('directory-malformed-key', 'a key is not an object');
  if (k.kty !== 'OKP' || k.crv !== 'Ed25519') throw refuse('directory-unsupported-key', `key type ${String(k.kty)}/${String(k.crv)} (this site verifies Ed25519)`);
  if (typeof k.x !== 'string' || Buffer.from(k.x, 'base64url').length !== 32) throw refuse('directory-malformed-key', 'x is not a 32-byte base64url value');
  if ('d' in k) throw refuse('directory-private-key', 'a private key member is published');
  if (k.alg !== undefined && k.alg !== ED25519_ALG) throw refuse('directory-alg-not-registered', `alg ${String(k.alg)} is not the HTTP signature algorithm ed25519 (§5.5.1)`);
  if (k.kid !== undefined && typeof k.kid !== 'string') throw refuse('directory-malformed-key', 'kid is not a string');
  return k as unknown as Ed25519Jwk & { kid?: string };
}

/** Resolve `url` (a Signature-Agent member) into the keys it publishes, each proven by the response's signature. */
export async function resolveDirectory(url: string, fetchOnce: DirectoryFetch, nowMs: number): Promise<ResolvedDirectory> {
  const target = new URL(url);
  const got = await fetchOnce(url).catch((err: unknown) => ({ error: String(err) }));
  if ('error' in got) throw refuse('directory-unreachable', `${url}: ${got.error}`);
  if (got.status !== 200) throw refuse('directory-not-200', `${url} answered ${got.status}; only 200 counts, redirects are not followed (§5.5)`);
  const mediaType = (got.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (target.pathname === WELL_KNOWN_PATH && mediaType !== DIRECTORY_MEDIA_TYPE) throw refuse('directory-media-type', `${url} is served as ${mediaType || 'nothing'} (§5.5.1)`);
  if (got.body.length > MAX_DIRECTORY_BYTES) throw refuse('directory-too-large', `${got.body.length} bytes`);
  let doc: { keys?: unknown };
  try {
    doc = JSON.parse(got.body.toString('utf8')) as { keys?: unknown };
  } catch {
    throw refuse('directory-not-a-jwk-set', `${url} is not JSON (a ${mediaType || 'typeless'} answer)`);
  }
  if (!doc || !Array.isArray(doc.keys) || doc.keys.length === 0) throw refuse('directory-not-a-jwk-set', `${url} has no "keys" array (RFC 7517 §5)`);
  if (doc.keys.length > MAX_KEYS) throw refuse('directory-too-many-keys', `${doc.keys.length} keys`);
  const byThumbprint = new Map<string, KeyObject>();
  for (const raw of doc.keys) {
    const jwk = jwkOf(raw);
    const tp = thumbprint(jwk);
    if (jwk.kid !== undefined && jwk.kid !== tp) throw refuse('directory-kid-not-thumbprint', `kid ${jwk.kid} is not the key's RFC 7638 thumbprint ${tp} (§5.5)`);
    byThumbprint.set(tp, publicKeyOf(jwk));
  }
  const proven = provenKeys(got, target, byThumbprint, nowMs);
  const maxAge = /max-age=(\d+)/.exec(got.headers['cache-control'] ?? '')?.[1];
  return { keys: proven, maxAgeS: Math.min(Number(maxAge ?? 0), 86_400) };
}

/** Appendix B.1: the keys whose possession the response proves for the authority it was fetched from. */
function provenKeys(got: FetchedDirectory, target: URL, keys: Map<string, KeyObject>, nowMs: number): Map<string, KeyObject> {
  const digestField = got.headers['content-digest'];
  if (!digestField) throw refuse('directory-digest-missing', 'no Content-Digest (Appendix B.1 covers content-digest)');
  const sha = dictionary(digestField, 'content-digest').get('sha-256');
  const expected = createHash('sha256').update(got.body).digest();
  if (!sha || isInnerList(sha) || !(sha[0] instanceof ArrayBuffer) || !expected.equals(Buffer.from(sha[0]))) throw refuse('directory-digest-mismatch', 'Content-Digest sha-256 does not match the body (RFC 9530 §2)');
  if (!got.headers['signature-input'] || !got.headers['signature']) throw refuse('directory-unsigned', 'the directory response carries no signature (Appendix B.1)');
  const inputs = dictionary(got.headers['signature-input'], 'directory-signature-input');
  const signatures = dictionary(got.headers['signature'], 'directory-signature');
  const message = { fields: got.headers, request: { authority: target.host, path: target.pathname, method: 'GET', fields: {} } };
  const now = Math.floor(nowMs / 1000);
  const proven = new Map<string, KeyObject>();
  const problems: string[] = [];
  for (const [label, entry] of inputs) {
    if (!isInnerList(entry) || entry[1].get('tag') !== 'http-message-signatures-directory') continue;
    try {
      const list = entry as InnerList;
      const ids = componentsOf(list).map((c) => c.id);
      if (!ids.includes('"@authority";req') || !ids.includes('"content-digest"')) throw refuse('directory-signature-coverage', `${label} covers ${ids.join(' ')}, not "@authority";req and "content-digest"`);
      const created = seconds(list[1], 'created', 'directory-created-missing');
      const expires = seconds(list[1], 'expires', 'directory-expires-missing');
      if (created > now + SKEW_S) throw refuse('directory-created-in-future', `${label}: created is in the future (Appendix B.1: MUST reject)`);
      if (expires <= now) throw refuse('directory-signature-expired', `${label}: expired`);
      const keyid = list[1].get('keyid');
      const key = typeof keyid === 'string' ? keys.get(keyid) : undefined;
      if (!key) throw refuse('directory-signature-keyid', `${label}: keyid ${String(keyid)} is no key of this directory`);
      if (!ed25519Verifies(key, signatureBase(componentsOf(list), list, message), signatureBytes(signatures, label))) throw refuse('directory-bad-signature', `${label} does not verify for authority ${target.host}`);
      proven.set(keyid as string, key);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      problems.push(err.reason);
    }
  }
  if (!proven.size) throw refuse(problems[0] ?? 'directory-unsigned', problems.length ? `no key is proven (${problems.join(', ')})` : 'no signature is tagged http-message-signatures-directory (Appendix B.1)');
  return proven;
}
