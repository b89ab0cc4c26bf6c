/**
 * DNS-rebinding defence (spec 2025-11-25 basic/transports#security-warning and
 * basic/security_best_practices#local-mcp-server-compromise).
 *
 * A rebinding attack reaches us under the attacker's host name, so the Host
 * header is what we pin: the public host from baseUrl, loopback names (a
 * rebinding page cannot present those) and any configured extras. Origin is
 * not pinned: /mcp is an open, credential-free, CORS-enabled surface, so a
 * cross-site caller gains nothing it could not get from curl. A malformed
 * Origin is still refused. Only POST is checked: GET carries no data.
 */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function allowedHostSet(baseUrl: string, extra: readonly string[] = []): Set<string> {
  const hosts = new Set([...LOOPBACK, ...extra.map((h) => h.toLowerCase())]);
  try {
    hosts.add(new URL(baseUrl).hostname.toLowerCase());
  } catch {
    // A bad baseUrl leaves only loopback and extras; config validation reports it elsewhere.
  }
  return hosts;
}

/** Host header without its port: `example.com:8443` → `example.com`, `[::1]:80` → `[::1]`. */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export type HostVerdict = { ok: true } | { ok: false; error: string };

export function checkHost(allowed: ReadonlySet<string>, host: string | undefined, origin: string | undefined): HostVerdict {
  if (!host || !allowed.has(hostnameOf(host))) {
    return { ok: false, error: `Host ${host ?? '(none)'} is not served here.` };
  }
  if (origin !== undefined && origin !== 'null' && !URL.canParse(origin)) {
    return { ok: false, error: 'The Origin header is not a valid origin.' };
  }
  return { ok: true };
}
