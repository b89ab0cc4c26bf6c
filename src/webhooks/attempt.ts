// One delivery attempt: sign the stored body with a fresh timestamp, POST it through the
// guarded egress (networkA, as a probe goes: the guard is asked again now, the operator's proxy
// sees it), never follow a redirect, and say what came of it in words a receiver's owner can
// act on. Never throws: every outcome is a value the caller records on the row.
import type { Egress } from '../net/egress.ts';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signPayload } from './signature.ts';

/**
 * The receiver's answer is read up to the scanner's per-response cap (src/scanner/probe.ts
 * DEFAULT_MAX_BODY, 256 KiB; test/webhooks/deliveries.test.ts keeps the two equal). Not
 * imported from there: the scanner's module would load its HTML parser into every start.
 */
export const RESPONSE_BODY_CAP = 256 * 1024;

export interface AttemptInput {
  url: string;
  eventId: string;
  /** The exact JSON text stored at send time: the same bytes on every attempt. */
  body: string;
  secret: string;
  /** Unix seconds: the signature's t. */
  timestamp: number;
  timeoutMs: number;
  userAgent: string;
  signal?: AbortSignal;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

/** A receiver's answer in one line, short enough to show in getWatch. */
function snippet(body: Buffer): string {
  const text = body.subarray(0, 400).toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export async function attemptDelivery(egress: Egress, a: AttemptInput): Promise<AttemptResult> {
  const result = await egress.fetch({
    url: a.url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': a.userAgent,
      [SIGNATURE_HEADER]: signPayload(a.secret, a.timestamp, a.body),
      [EVENT_ID_HEADER]: a.eventId,
    },
    body: a.body,
    timeoutMs: a.timeoutMs,
    maxBodyBytes: RESPONSE_BODY_CAP,
    // Zero: a 3xx with a Location comes back as REDIRECT_LIMIT, unfollowed.
    maxRedirects: 0,
    ...(a.signal ? { signal: a.signal } : {}),
  });
  if (result.ok) {
    if (result.status >= 200 && result.status < 300) return { delivered: true, statusCode: result.status, error: null };
    const said = snippet(result.body);
    const what = result.status >= 300 && result.status < 400 ? `answered ${result.status} (a redirect, never followed)` : `answered ${result.status}`;
    return { delivered: false, statusCode: result.status, error: `the receiver ${what}${said ? `: ${said}` : ''}` };
  }
  switch (result.errorCode) {
    case 'REDIRECT_LIMIT':
    case 'REDIRECT_LOOP':
      return { delivered: false, statusCode: null, error: `the receiver redirected to ${result.redirects[0] ?? 'another URL'}; deliveries never follow redirects` };
    case 'TIMEOUT':
      return { delivered: false, statusCode: null, error: `no complete answer within ${a.timeoutMs} ms (TIMEOUT)` };
    case 'GUARD_REFUSED':
      return { delivered: false, statusCode: null, error: `refused before sending: ${result.message} (GUARD_REFUSED)` };
    default:
      return { delivered: false, statusCode: null, error: `${result.message} (${result.errorCode})` };
  }
}
