// listChanges' cursors: opaque to partners (base64url text they store and send back as it
// is), stable (a cursor names a position in the feed's seq order, never a page or a time, so
// it means the same on every instance and after every restart). Not secret and not signed:
// a forged cursor only moves the caller within its own key's events.
const PREFIX = 'cf1:';
const SEQ = /^(0|[1-9][0-9]{0,15})$/;
const TEXT = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(seq: number): string {
  return Buffer.from(`${PREFIX}${seq}`, 'utf8').toString('base64url');
}

/** The seq a cursor names, or undefined when it is not one this service issues. */
export function decodeCursor(cursor: string): number | undefined {
  if (!TEXT.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  const digits = text.slice(PREFIX.length);
  if (!SEQ.test(digits)) return undefined;
  const seq = Number(digits);
  // Re-encoding must give the same text: no second spelling of a cursor.
  return Number.isSafeInteger(seq) && encodeCursor(seq) === cursor ? seq : undefined;
}
