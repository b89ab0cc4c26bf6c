/**
 * Name resolution for the scanner: SCAN_RESOLVE static answers first (like
 * curl --resolve), then the system resolver. The answers are only candidates:
 * the guard still decides whether they may be used.
 *
 * SCAN_RESOLVE syntax: comma-separated `host=addr` or `*.suffix=addr` entries;
 * repeating a host adds another address. `*.suffix` matches names below the
 * suffix, not the suffix itself (give it its own entry).
 */
import { lookup } from 'node:dns/promises';

export interface ResolveOverrides {
  readonly exact: ReadonlyMap<string, readonly string[]>;
  readonly suffixes: ReadonlyArray<readonly [suffix: string, addresses: readonly string[]]>;
}

export type Resolution =
  | { ok: true; addresses: string[]; source: 'static' | 'dns' }
  | { ok: false; errorCode: 'DNS_NXDOMAIN' | 'DNS_FAIL' | 'TIMEOUT'; message: string };

export type DnsLookup = (host: string) => Promise<string[]>;

export const EMPTY_OVERRIDES: ResolveOverrides = { exact: new Map(), suffixes: [] };

/** Parse a SCAN_RESOLVE value; malformed entries throw so a typo never silently falls through to DNS. */
export function parseScanResolve(spec: string | undefined): ResolveOverrides {
  const exact = new Map<string, string[]>();
  const suffixes = new Map<string, string[]>();
  for (const raw of (spec ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new Error(`SCAN_RESOLVE entry "${entry}" is not host=addr`);
    const host = entry.slice(0, eq).trim().toLowerCase().replace(/\.$/, '');
    const addr = entry.slice(eq + 1).trim().replace(/^\[|\]$/g, '');
    const table = host.startsWith('*.') ? suffixes : exact;
    const key = host.startsWith('*.') ? host.slice(2) : host;
    table.set(key, [...(table.get(key) ?? []), addr]);
  }
  // Longest suffix first, so a more specific wildcard wins.
  const ordered = [...suffixes.entries()].sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1));
  return { exact, suffixes: ordered };
}

/** The static answer for a host, if any. */
export function staticAnswer(overrides: ResolveOverrides, host: string): readonly string[] | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  const hit = overrides.exact.get(name);
  if (hit) return hit;
  for (const [suffix, addrs] of overrides.suffixes) if (name.endsWith(`.${suffix}`)) return addrs;
  return undefined;
}

const systemLookup: DnsLookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Resolve a host: static answers, else DNS bounded by `timeoutMs`. */
export async function resolveHost(host: string, overrides: ResolveOverrides, timeoutMs: number, dns: DnsLookup = systemLookup): Promise<Resolution> {
  const fixed = staticAnswer(overrides, host);
  if (fixed) return { ok: true, addresses: [...fixed], source: 'static' };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Resolution>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, errorCode: 'TIMEOUT', message: `DNS lookup of ${host} timed out` }), timeoutMs);
  });
  const answer = dns(host).then(
    (addresses): Resolution => (addresses.length ? { ok: true, addresses, source: 'dns' } : { ok: false, errorCode: 'DNS_NXDOMAIN', message: `${host} has no addresses` }),
    (err: NodeJS.ErrnoException): Resolution =>
      err.code === 'ENOTFOUND' || err.code === 'ENODATA'
        ? { ok: false, errorCode: 'DNS_NXDOMAIN', message: `${host} does not resolve` }
        : { ok: false, errorCode: 'DNS_FAIL', message: `DNS lookup of ${host} failed (${err.code ?? err.message})` },
  );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
