// The service's Web Bot Auth identity: one Ed25519 key, from PROBE_SIGNING_KEY (a private JWK)
// or generated once and stored, published as a key directory whose kid is the key's RFC 7638
// JWK thumbprint (draft-ietf-webbotauth-httpsig-protocol-01 §5.5, §5.5.1). Pure: the engine
// (and so the CLI bundle) imports it; where the key is stored is stored-key.ts.
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
export const KEY_DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

export interface PublicJwk { kty: 'OKP'; crv: 'Ed25519'; x: string }

export interface ProbeKey {
  privateKey: KeyObject;
  publicJwk: PublicJwk;
  /** RFC 7638 thumbprint of the public key (base64url SHA-256 of its canonical members). */
  kid: string;
}

/** RFC 7638 §3: the required members in lexicographic order, no whitespace, SHA-256, base64url. */
export function jwkThumbprint(jwk: PublicJwk): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical, 'utf8').digest('base64url');
}

/** The probe key of an Ed25519 private JWK (its JSON text). */
export function fromPrivateJwk(json: string): ProbeKey {
  const jwk = JSON.parse(json) as { kty?: string; crv?: string; x?: string; d?: string };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x || !jwk.d) throw new Error('the signing key must be an Ed25519 private JWK (kty OKP, crv Ed25519, x and d)');
  const privateKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
  const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
  return { privateKey, publicJwk, kid: jwkThumbprint(publicJwk) };
}

/** A new Ed25519 private key as JWK JSON text. */
export function generatePrivateJwk(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return JSON.stringify(privateKey.export({ format: 'jwk' }));
}

/**
 * The key directory document: a JWK Set (RFC 7517 §5) with the public key only, its thumbprint as
 * kid (§5.5: at the well-known URI a kid MUST be the thumbprint). No `alg`: §5.5.1 restricts it to
 * the HTTP Signature Algorithms registry (RFC 9421 §6.2, where Ed25519 is "ed25519", not JOSE's
 * "EdDSA"), and the draft's own directory examples leave it out.
 */
export function keyDirectory(key: ProbeKey): { keys: Array<PublicJwk & { kid: string; use: 'sig' }> } {
  return { keys: [{ kty: key.publicJwk.kty, crv: key.publicJwk.crv, kid: key.kid, x: key.publicJwk.x, use: 'sig' }] };
}
