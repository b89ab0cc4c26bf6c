// A partner key is 32 random bytes (256 bits) in base64url behind a recognisable prefix, so
// secret scanners and people can tell what leaked. It is stored only as its SHA-256: with
// that much entropy there is nothing to brute-force, so a fast hash is right and a slow one
// (bcrypt, scrypt) would only cost every request. Lookup is by the hash's unique index.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'ark_';
/** ark_ + 43 base64url characters. */
const KEY_SHAPE = /^ark_[A-Za-z0-9_-]{43}$/;

export function newKey(): { keyId: string; key: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { keyId: `key_${randomBytes(8).toString('hex')}`, key, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function looksLikeKey(s: string): boolean {
  return KEY_SHAPE.test(s);
}

/** The bearer token of an Authorization header (scheme matched case-insensitively, RFC 9110 §11.1), or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header ?? '');
  return m?.[1];
}
