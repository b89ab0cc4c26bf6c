// Turns what a person pastes ("HTTPS://WWW.Example.com:443/pricing?x#y", "bücher.de.")
// into the one domain we scan and key results by. The WHATWG URL parser does the
// standard parts: case folding, IDNA to punycode, and canonicalising every IPv4 spelling
// (decimal, octal, hex, short forms) so IP literals cannot hide. Name and address policy
// (localhost, reserved suffixes, DNS answers) belongs to the guard in src/net/guard.ts.
import ipaddr from 'ipaddr.js';

export type NormalizeResult =
  | { ok: true; domain: string }
  | { ok: false; reason: 'empty' | 'unparseable' | 'ip-literal' | 'invalid-name'; message: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function normalizeDomain(input: string): NormalizeResult {
  const raw = input.trim();
  if (raw === '') return { ok: false, reason: 'empty', message: 'The domain is empty.' };
  // Accept a pasted URL with any scheme, or a bare host with optional port and path.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let host: string;
  try {
    host = new URL(withScheme).hostname;
  } catch {
    return { ok: false, reason: 'unparseable', message: `"${truncate(raw)}" is not a domain name.` };
  }
  // After WHATWG parsing every IPv4 spelling is dotted decimal and IPv6 is bracketed, so only
  // digits-and-dots hosts need ipaddr (whose failed parses throw, and cost, on every name).
  if (host.startsWith('[') || (/^[0-9.]+$/.test(host) && ipaddr.isValid(host))) {
    return { ok: false, reason: 'ip-literal', message: 'IP addresses cannot be scanned; give the domain name.' };
  }
  host = host.replace(/\.+$/, '');
  const labels = host.split('.');
  if (labels.length >= 3 && labels[0] === 'www') labels.shift();
  const domain = labels.join('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    return { ok: false, reason: 'invalid-name', message: `"${truncate(raw)}" is not a valid public domain name.` };
  }
  return { ok: true, domain };
}

/**
 * The key under which identical site scans coalesce and share one scan in flight:
 * the normalized domain plus the pinned profile ("auto" when detected), plus the owner's
 * intent when one was given (its report differs, so a scan with another intent is not shared).
 * `intent` is already in canonical form (src/scanner/intent-request.ts intentKey).
 */
/** Scans share a result only when they ask the same of it: domain, profile, (when not the default) rubric, and intent. */
export function coalesceKey(domain: string, profile?: string | null, rubric?: string, intent?: string): string {
  return `site:${domain}:${profile ?? 'auto'}${rubric ? `:${rubric}` : ''}${intent ? `:intent:${intent}` : ''}`;
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
