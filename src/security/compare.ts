// The one way this service compares a secret a request presents (the operator token, a watch's
// manage or mail token, the CLI upload token, a webhook signature) with the one it expects:
// both are hashed with SHA-256 first and the two 32-byte digests compared with node:crypto's
// timingSafeEqual. Equal-length digests make the time independent of where the strings first
// differ and of the expected secret's length, which a plain `===` or a length check before
// timingSafeEqual would each reveal. test/security/compare.test.ts lists the call sites and
// fails when a secret is compared any other way in src/.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Longer than any secret we issue or expect; a longer presented value is refused without hashing it. */
const MAX_PRESENTED = 4096;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `presented` (anything a request carried) is exactly `expected`, in constant time.
 * False for a non-string, an empty string, one over 4096 characters, or no expected secret.
 */
export function secretsEqual(presented: unknown, expected: string | null | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > MAX_PRESENTED) return false;
  if (typeof expected !== 'string' || expected.length === 0) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
