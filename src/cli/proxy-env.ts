/**
 * Which forward proxy the caller's environment asks for, the way curl, npm and
 * undici's EnvHttpProxyAgent read it: HTTPS_PROXY for https (falling back to
 * HTTP_PROXY), HTTP_PROXY for http, lower-case spellings first, and NO_PROXY
 * entries (`*`, `host`, `.suffix`, `*.suffix`, optional `:port`) bypass it.
 *
 * The probe egress needs the decision up front because it always connects to
 * the address the guard checked; it cannot hand the URL to an env-aware agent.
 */
export type Env = Record<string, string | undefined>;

interface NoProxyEntry { host: string; port: number; subdomainsOnly: boolean }

function parseNoProxy(value: string): NoProxyEntry[] {
  const out: NoProxyEntry[] = [];
  for (const raw of value.split(/[,\s]+/)) {
    if (!raw) continue;
    const m = /^\[(.+)\](?::(\d+))?$/.exec(raw) ?? /^([^:]+)(?::(\d+))?$/.exec(raw);
    const host = (m?.[1] ?? raw).toLowerCase();
    out.push({
      host: host.replace(/^\*?\./, '').replace(/\.$/, ''),
      port: m?.[2] ? Number(m[2]) : 0,
      subdomainsOnly: host.startsWith('*.'),
    });
  }
  return out;
}

/** True when NO_PROXY says `host:port` must be reached directly. */
export function bypassesProxy(host: string, port: number, env: Env): boolean {
  const entries = parseNoProxy(env.no_proxy ?? env.NO_PROXY ?? '');
  const name = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return entries.some((e) => {
    if (e.port && e.port !== port) return false;
    if (e.host === '*') return true;
    if (!e.subdomainsOnly && name === e.host) return true;
    return name.endsWith(`.${e.host}`);
  });
}

/** The proxy URL for `url`, or undefined for a direct connection. */
export function proxyFor(url: string | URL, env: Env): string | undefined {
  const u = typeof url === 'string' ? new URL(url) : url;
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const proxy = u.protocol === 'https:' ? env.https_proxy || env.HTTPS_PROXY || httpProxy : httpProxy;
  if (!proxy) return undefined;
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  if (bypassesProxy(u.hostname, port, env)) return undefined;
  // curl and npm accept "host:port" and mean an http proxy; undici wants a URL.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/** A proxy URL without its credentials, for messages. */
export function describeProxy(proxy: string): string {
  try {
    const u = new URL(proxy);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'a proxy';
  }
}
