/**
 * SSRF guard: which host names and addresses a scan may ever connect to.
 *
 * Two layers, both applied on every redirect hop:
 *   1. the name itself: IP literals (in any encoding the WHATWG URL parser
 *      accepts: decimal, octal, hex, short forms, IPv6 and IPv4-mapped IPv6),
 *      localhost and reserved or internal names are refused outright;
 *   2. the addresses the name resolves to: every answer must be globally
 *      routable. ipaddr.js classifies; only its `unicast` range counts as
 *      global (loopback, private, link-local, CGNAT, documentation, 6to4,
 *      Teredo, ... are all refused), so no table is maintained here.
 * The egress then connects to the very address that passed layer 2, which
 * closes the DNS-rebinding window (see egress.ts).
 */
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export type GuardVerdict = { ok: true } | { ok: false; reason: string };

/** Suffixes that never name a public website (RFC 2606, 6761, 6762, 8375, 9476 and common internal zones). */
const RESERVED_SUFFIXES = [
  'localhost', 'local', 'internal', 'localdomain', 'lan', 'intranet', 'corp', 'home', 'private',
  'test', 'invalid', 'example', 'onion', 'alt', 'arpa', 'home.arpa',
  'example.com', 'example.net', 'example.org',
];

/** True when `host` is an IP literal in any spelling a URL parser or resolver would accept. */
export function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (ipaddr.isValid(bare)) return true; // covers IPv6 and the legacy inet_aton forms ipaddr knows
  let parsed: string;
  try {
    parsed = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname;
  } catch {
    // A name the URL parser rejects because its last label is numeric ("a.123") is an
    // IPv4 attempt in WHATWG terms; refusing it is the safe reading.
    return /(^|\.)(0x[0-9a-f]*|\d+)\.?$/i.test(bare);
  }
  return parsed.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(parsed);
}

// Both layers are pure functions of a string and run on every hop of every probe, so recent
// answers are remembered. A memo of a pure function holds no service state (nothing to wire
// or close), which is why it may live here rather than in the composition root; bounded LRU.
const nameMemo = new LRUCache<string, GuardVerdict>({ max: 2048 });
const addressMemo = new LRUCache<string, { global: boolean }>({ max: 2048 });
function remember<V extends {}>(memo: LRUCache<string, V>, key: string, compute: () => V): V {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  memo.set(key, value);
  return value;
}

/** Layer 1: is this host name acceptable before any DNS question is asked? */
export function checkHostName(host: string): GuardVerdict {
  return remember(nameMemo, host, () => checkHostNameUncached(host));
}

function checkHostNameUncached(host: string): GuardVerdict {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === '') return { ok: false, reason: 'empty host name' };
  if (isIpLiteral(host)) return { ok: false, reason: 'IP addresses cannot be scanned' };
  if (!name.includes('.')) return { ok: false, reason: 'single-label host names are internal' };
  if (!/^[a-z0-9.-]+$/.test(name) || name.split('.').some((l) => l === '' || l.length > 63 || l.startsWith('-') || l.endsWith('-'))) {
    return { ok: false, reason: 'not a valid DNS host name' };
  }
  for (const suffix of RESERVED_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`)) return { ok: false, reason: `.${suffix} names are reserved or internal` };
  }
  return { ok: true };
}

/** Layer 2: may we connect to this resolved address? Only globally routable unicast passes. */
export function isGlobalAddress(address: string): boolean {
  return remember(addressMemo, address, () => ({ global: isGlobalUncached(address) })).global;
}

function isGlobalUncached(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  // ::/96 (unspecified, loopback, the deprecated IPv4-compatible ::a.b.c.d) is reserved, but
  // ipaddr.js calls most of it unicast: ::169.254.169.254 must not pass as global.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return false;
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

/** Both layers for a name and its answers; every answer must be global (one bad answer refuses the name). */
export function checkResolved(host: string, addresses: readonly string[]): GuardVerdict {
  const named = checkHostName(host);
  if (!named.ok) return named;
  if (addresses.length === 0) return { ok: false, reason: 'no addresses' };
  const bad = addresses.find((a) => !isGlobalAddress(a));
  return bad === undefined ? { ok: true } : { ok: false, reason: `resolves to a non-public address (${bad})` };
}
