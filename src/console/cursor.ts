// The lists' cursors: the keyset of a page's last row (created_at, id) as base64url JSON. Opaque
// to callers (the contract promises nothing about the text), checked on the way in: a cursor
// that does not decode to two short strings is a 400, never a query with odd values.
import { errors } from '../errors.ts';
import type { Keyset } from '../storage/queries/console.ts';

export function encodeCursor(k: Keyset): string {
  return Buffer.from(JSON.stringify([k.createdAt, k.id]), 'utf8').toString('base64url');
}

const BAD = () => errors.badRequest('The cursor is not one this service gave.', 'Pass the `nextCursor` of the page before unchanged, or omit it for the first page.');

export function decodeCursor(cursor: string | undefined): Keyset | null {
  if (cursor === undefined) return null;
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw BAD();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw BAD();
  }
  if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'string' && x.length >= 1 && x.length <= 64)) throw BAD();
  return { createdAt: v[0] as string, id: v[1] as string };
}
