// Webhook signatures in Stripe's documented shape, so receivers can reuse what they know:
//
//   AgentReadiness-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>
//
// Pure functions: the signer the deliveries use, and a verifier for receivers (and our tests)
// that compares in constant time, accepts any of several v1 values (a secret being rotated) and
// refuses a timestamp outside the tolerance, so a captured delivery cannot be replayed later.
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../security/compare.ts';

export const SIGNATURE_HEADER = 'AgentReadiness-Signature';
export const EVENT_ID_HEADER = 'AgentReadiness-Event-Id';
/** How old (or how far ahead) a signed timestamp may be when verified: five minutes, as Stripe's libraries default. */
export const DEFAULT_TOLERANCE_S = 300;

function mac(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header value for `rawBody` signed at `timestamp` (unix seconds). */
export function signPayload(secret: string, timestamp: number, rawBody: string | Buffer): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError('timestamp must be whole unix seconds');
  return `t=${timestamp},v1=${mac(secret, timestamp, rawBody)}`;
}

export type Verification = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * Checks a header against the raw body as received (before any JSON parsing, which would
 * change the bytes). `now` is unix seconds.
 */
export function verifySignature(header: string | undefined, rawBody: string | Buffer, secret: string, opts: { now: number; toleranceS?: number }): Verification {
  if (!header) return { ok: false, reason: 'no signature header' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === undefined) return { ok: false, reason: 'no timestamp (t=) in the signature header' };
  if (candidates.length === 0) return { ok: false, reason: 'no v1 signature in the signature header' };
  const tolerance = opts.toleranceS ?? DEFAULT_TOLERANCE_S;
  if (Math.abs(opts.now - timestamp) > tolerance) return { ok: false, reason: `the timestamp is more than ${tolerance} s from now` };
  const expected = mac(secret, timestamp, rawBody);
  // Every candidate is compared (no early exit), so the time does not say which one matched.
  const match = candidates.map((c) => secretsEqual(c, expected)).includes(true);
  return match ? { ok: true, timestamp } : { ok: false, reason: 'no signature matches the body' };
}
