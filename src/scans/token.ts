// The cliUploadToken: 256 random bits, handed out once, stored only as its SHA-256, and
// compared in constant time. It never enters a log line, an archive payload or a page.
import { createHash, randomBytes } from 'node:crypto';
import { secretsEqual } from '../security/compare.ts';

export function newUploadToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against the stored hash (src/security/compare.ts). */
export function tokenMatches(presented: unknown, storedHash: string | null): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512) return false;
  return secretsEqual(hashToken(presented), storedHash);
}
