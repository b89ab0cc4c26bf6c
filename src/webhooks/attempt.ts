// One delivery attempt: sign the stored body with a fresh timestamp, POST it through the
// guarded egress (networkA, as a probe goes: the guard is asked again now, the operator's proxy
// sees it), never follow a redirect, and say what came of it in words a receiver's owner can
// act on. Never throws: every outcome is a value the caller records on the row.
import type { Egress } from '../net/egress.ts';
import { cleanExcerpt, cleanText } from '../security/plain-text.ts';
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

/**
 * How much of a receiver's answer (and of anything else it chose, such as a redirect's
 * Location) a failed attempt keeps for getWatch: enough to recognise an error page, too little
 * to read a service through us. Controls and bidi overrides are stripped (src/security/plain-text.ts).
 */
export const EXCERPT_CHARS = 80;

/** Text the receiver chose, as one short plain line. */
function excerpt(text: string): string {
  return cleanExcerpt(text, EXCERPT_CHARS);
}

/** The address a refused name resolved to is never kept: getWatch would show our DNS's answer to the watch's owner. */
export function withoutAddress(message: string): string {
  // An address always has a dot or a colon; an error code such as (GUARD_REFUSED) never does.
  return message.replace(/resolves to a non-public address \([^()\s]*[.:][^()\s]*\)/g, 'resolves to a non-public address');
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
    // Decoded from a few bytes past the excerpt only: the rest of the answer is never kept.
    const said = excerpt(result.body.subarray(0, EXCERPT_CHARS * 4 + 64).toString('utf8'));
    const what = result.status >= 300 && result.status < 400 ? `answered ${result.status} (a redirect, never followed)` : `answered ${result.status}`;
    return { delivered: false, statusCode: result.status, error: `the receiver ${what}${said ? `: ${said}` : ''}` };
  }
  switch (result.errorCode) {
    case 'REDIRECT_LIMIT':
    case 'REDIRECT_LOOP':
      return { delivered: false, statusCode: null, error: `the receiver redirected to ${result.redirects[0] ? excerpt(result.redirects[0]) : 'another URL'}; deliveries never follow redirects` };
    case 'TIMEOUT':
      return { delivered: false, statusCode: null, error: `no complete answer within ${a.timeoutMs} ms (TIMEOUT)` };
    case 'GUARD_REFUSED':
      return { delivered: false, statusCode: null, error: `refused before sending: ${excerpt(withoutAddress(result.message))} (GUARD_REFUSED)` };
    default:
      return { delivered: false, statusCode: null, error: `${cleanText(result.message).slice(0, 300)} (${result.errorCode})` };
  }
}
