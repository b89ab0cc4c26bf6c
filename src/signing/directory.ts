// The key directory response, signed as draft-ietf-webbotauth-httpsig-protocol-01 Appendix B.1
// describes ("Possession Proof on the Directory Response"): one RFC 9421 signature per published key,
// covering ("@authority";req "content-digest") with created, expires, keyid (the key's RFC 7638
// thumbprint) and tag="http-message-signatures-directory", plus the RFC 9530 Content-Digest of the
// exact body bytes. It proves we hold the key and binds the key set to our authority, so a copy
// re-served under another name does not verify (Appendix B.1, Appendix E.2.3 for the wire form).
import { createHash, sign as ed25519Sign } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { KEY_DIRECTORY_PATH, keyDirectory, type ProbeKey } from './keys.ts';

export const DIRECTORY_TAG = 'http-message-signatures-directory';
/**
 * How long a directory signature stays valid. Appendix C.8 warns against short lifetimes here (at
 * expiry every redistributed copy drops to unverified at once); a week outlives the response's
 * one-day Cache-Control many times over and still ages out of any copy within days of a rotation.
 */
export const DIRECTORY_SIGNATURE_MS = 7 * 24 * 3600_000;

/** RFC 9530 §2: Content-Digest with sha-256, an RFC 9651 Dictionary whose value is a Byte Sequence. */
export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

export interface SignedDirectory {
  body: string;
  /** content-digest, signature-input and signature (lowercase names). */
  headers: Record<string, string>;
}

/**
 * The directory body and the headers that sign it for `baseUrl`'s authority. The authority is
 * BASE_URL's, not whatever Host a request carried: the proof says under which name we publish this
 * key set, and a request that reached us under another name must not get a proof for that name.
 */
export async function signedKeyDirectory(keys: readonly ProbeKey[], baseUrl: string, validity: { created: Date; expires: Date }): Promise<SignedDirectory> {
  const body = JSON.stringify({ keys: keys.flatMap((k) => keyDirectory(k).keys) });
  const digest = contentDigest(body);
  const request = { method: 'GET', url: new URL(KEY_DIRECTORY_PATH, new URL(baseUrl).origin).href, headers: {} };
  let response: { status: number; headers: Record<string, string | string[]> } = { status: 200, headers: { 'content-digest': digest } };
  // "Each key SHOULD be used to provide one signature" (Appendix B.1): one label per key.
  for (const [i, key] of keys.entries()) {
    response = await httpbis.signMessage({
      key: { id: key.kid, sign: async (data: Buffer) => ed25519Sign(null, data, key.privateKey) },
      name: keys.length === 1 ? 'binding' : `binding${i}`,
      fields: ['@authority;req', 'content-digest'],
      // Appendix B.1 requires created, expires, keyid and tag; alg is left out as in Appendix E.2.3.
      params: ['created', 'expires', 'keyid', 'tag'],
      paramValues: { created: validity.created, expires: validity.expires, tag: DIRECTORY_TAG },
    }, response, request);
  }
  const h = response.headers as Record<string, string>;
  return { body, headers: { 'content-digest': digest, 'signature-input': h['Signature-Input']!, signature: h.Signature! } };
}
