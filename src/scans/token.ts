// The cliUploadToken: 256 random bits, handed out once, stored only as its SHA-256, and
// compared in constant time. It never enters a log line, an archive payload or a page.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newUploadToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against the stored hash (both hashed to a fixed length first). */
export function tokenMatches(presented: unknown, storedHash: string | null): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512 || !storedHash) return false;
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
