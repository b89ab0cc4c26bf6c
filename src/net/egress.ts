/**
 * Guarded egress: the only way a scan (site scanner, MCP scanner, CLI) talks
 * to the outside world.
 *
 * Every hop: guard the name -> resolve (SCAN_RESOLVE, then DNS) -> guard the
 * answers -> connect to the checked address (SNI/Host = name). Redirects are
 * followed by hand so each hop is guarded again. Bodies are read up to a cap
 * of decoded bytes (exchange.ts). Failures come back as values with stable codes; fetch()
 * never throws.
 */
import { checkHostName, checkResolved } from './guard.ts';
import { EMPTY_OVERRIDES, resolveHost, type DnsLookup, type ResolveOverrides } from './resolve.ts';
import { exchange, type Exchanged } from './exchange.ts';
import { classifyError, type ProbeErrorCode } from './errors.ts';
import { DispatcherCache } from './dispatchers.ts';

export interface ProbeRequest {
  url: string;
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
  /** Stop reading early, e.g. an SSE stream once the awaited event arrived. */
  stopWhen?: (bodySoFar: Buffer) => boolean;
  /**
   * Headers made for each hop just before it is sent, from that hop's URL (a Web Bot Auth signature:
   * every request its own created and nonce, and a redirect to another authority signed for that
   * authority, never sent the old one). A rejection fails the request with `SIGNING`, unsent.
   */
  signFor?: (url: string) => Promise<Record<string, string>>;
  /**
   * Headers for one origin only (an authenticated preview's secrets, src/cli/preview.ts): added
   * on each hop whose URL is exactly `origin` (scheme, host and port), and on no other, so a
   * redirect off the origin never carries them.
   */
  originHeaders?: { origin: string; headers: Readonly<Record<string, string>> };
}

export type ProbeResult =
  | { ok: true; status: number; headers: Record<string, string>; setCookieNames: string[]; body: Buffer; bodyTruncated: boolean; finalUrl: string; redirects: string[]; timingMs: number }
  | { ok: false; errorCode: ProbeErrorCode; message: string; redirects: string[]; timingMs: number };

export interface Egress {
  readonly name: string;
  /** False when this network has no route configured; its probes come back `UNCONFIGURED` and count as unprobed. */
  readonly configured: boolean;
  fetch(req: ProbeRequest): Promise<ProbeResult>;
  /** Nothing more will be asked of these hosts for now: close their connections once idle. */
  release(hosts: Iterable<string>): void;
  close(): Promise<void>;
}

export interface EgressOptions {
  name: string;
  /** Forward proxy (http://host:port). Absent: direct egress if `allowDirect`, else unconfigured. */
  proxyUrl?: string;
  allowDirect?: boolean;
  resolve?: ResolveOverrides;
  /** Extra trusted CAs (test worlds); NODE_EXTRA_CA_CERTS works too when set before start. */
  ca?: string | Buffer | Array<string | Buffer>;
  dnsLookup?: DnsLookup;
  connections?: number;
  /**
   * The CLI's `scan localhost:<port>`: the one loopback origin this egress may reach,
   * bypassing the guard for exactly that host and port and nothing else. Direct only
   * (no proxy), and without `allowDirect` every other host is unreachable, so a local
   * scan never leaves the machine. The guard itself is unchanged: any other loopback
   * name or address is still refused.
   */
  allowLoopbackTarget?: LoopbackTarget;
  /**
   * The CLI behind the caller's own proxy, as curl and npm do it: the proxy is asked to
   * `CONNECT host:port` by name and resolves it itself, so the caller needs no DNS for
   * the site (a corporate network often has none). The name guard still applies, and an
   * IP literal is still refused; SCAN_RESOLVE is not consulted. Only with
   * `proxyUrl`. The service never sets this: its egress pins the checked address.
   */
  proxyResolvesNames?: boolean;
}

export interface LoopbackTarget { host: 'localhost' | '127.0.0.1' | '::1'; port: number }

/** Hard ceiling on redirects whatever the caller asks (verdicts.md: more than 5 is a transport error). */
const MAX_REDIRECTS = 5;

/** Raw bytes of a redirect's (or a body-less answer's) body read and dropped before the connection is cut instead. */
const REDIRECT_BODY_MAX = 64 * 1024;

/** The Location of a redirect this egress follows, or undefined when the answer is final. */
function redirectLocation(status: number, headers: Exchanged['headers']): string | undefined {
  const location = headers.location;
  return status >= 300 && status < 400 && typeof location === 'string' && location ? location : undefined;
}

/** Does `url` name exactly the allowed loopback origin (host and effective port)? */
function isLoopbackTarget(url: URL, target: LoopbackTarget | undefined): boolean {
  if (!target) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return host === target.host && port === target.port;
}

export function createEgress(opts: EgressOptions): Egress {
  const loopback = opts.allowLoopbackTarget;
  if (loopback) {
    if (opts.proxyUrl) throw new Error('allowLoopbackTarget is direct only; it cannot be combined with a proxy');
    if (!['localhost', '127.0.0.1', '::1'].includes(loopback.host) || !Number.isInteger(loopback.port) || loopback.port < 1 || loopback.port > 65535) {
      throw new Error(`allowLoopbackTarget must be localhost, 127.0.0.1 or ::1 with a port, not ${loopback.host}:${loopback.port}`);
    }
  }
  if (opts.proxyResolvesNames && !opts.proxyUrl) throw new Error('proxyResolvesNames needs proxyUrl');
  const reachesAnyHost = Boolean(opts.proxyUrl) || Boolean(opts.allowDirect);
  const configured = reachesAnyHost || Boolean(loopback);
  const overrides = opts.resolve ?? EMPTY_OVERRIDES;
  const dispatchers = new DispatcherCache({ proxyUrl: opts.proxyUrl, ca: opts.ca, connections: opts.connections });

  async function fetchOnce(req: ProbeRequest): Promise<ProbeResult> {
    const started = performance.now();
    const redirects: string[] = [];
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (errorCode: ProbeErrorCode, message: string): ProbeResult => ({ ok: false, errorCode, message, redirects, timingMs: elapsed() });
    if (!configured) return fail('UNCONFIGURED', `network ${opts.name} has no egress configured`);

    // One controller per request, its timer cleared the moment the request ends: AbortSignal.timeout
    // kept every request's timer (and AbortSignal.any its dependent signal) alive for the whole
    // timeout, thousands at once under load, at a measurable GC cost (bench/results.md).
    const controller = new AbortController();
    const deadline = { aborted: false };
    const timer = setTimeout(() => {
      deadline.aborted = true;
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, req.timeoutMs);
    const outer = req.signal;
    const onOuterAbort = () => controller.abort(outer!.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      return await fetchWithin(req, controller.signal, deadline, redirects, elapsed, fail);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  async function fetchWithin(
    req: ProbeRequest, signal: AbortSignal, deadline: { aborted: boolean }, redirects: string[],
    elapsed: () => number, fail: (errorCode: ProbeErrorCode, message: string) => ProbeResult,
  ): Promise<ProbeResult> {
    const maxRedirects = Math.min(req.maxRedirects, MAX_REDIRECTS);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return fail('BAD_URL', `not a URL: ${req.url}`);
    }
    let method = req.method ?? 'GET';
    let body = req.body;
    const seen = new Set<string>([url.href]);

    for (;;) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('BAD_URL', `unsupported scheme ${url.protocol}`);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      let address: string;
      if (opts.proxyResolvesNames) {
        const named = checkHostName(host);
        // IP literals and reserved names are refused here as everywhere, so the proxy only ever gets a public-looking name.
        if (!named.ok) return fail('GUARD_REFUSED', `${host}: ${named.reason}`);
        // The proxy gets the name (CONNECT host:port or an absolute-form URL) and resolves it.
        address = host;
      } else if (isLoopbackTarget(url, loopback)) {
        // The one origin the caller named explicitly; no DNS, no guard, this machine only.
        address = loopback!.host === '::1' ? '::1' : '127.0.0.1';
      } else {
        if (!reachesAnyHost) return fail('UNCONFIGURED', `network ${opts.name} only reaches ${loopback!.host}:${loopback!.port}`);
        const named = checkHostName(host);
        if (!named.ok) return fail('GUARD_REFUSED', `${host}: ${named.reason}`);
        const resolved = await resolveHost(host, overrides, Math.max(1, req.timeoutMs - elapsed()), opts.dnsLookup);
        if (!resolved.ok) return fail(resolved.errorCode, resolved.message);
        const guarded = checkResolved(host, resolved.addresses);
        if (!guarded.ok) return fail('GUARD_REFUSED', `${host}: ${guarded.reason}`);
        address = resolved.addresses[0]!;
      }
      let hopHeaders = req.headers;
      if (req.originHeaders && url.origin === req.originHeaders.origin) hopHeaders = { ...hopHeaders, ...req.originHeaders.headers };
      if (req.signFor) {
        try {
          hopHeaders = { ...hopHeaders, ...(await req.signFor(url.href)) };
        } catch (err) {
          return fail('SIGNING', `could not sign the request to ${url.host}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      let res: Exchanged;
      try {
        const origin = `${url.protocol}//${address.includes(':') ? `[${address}]` : address}${url.port ? `:${url.port}` : ''}`;
        res = await exchange(dispatchers.get(host, url.protocol === 'https:'), {
          origin, path: `${url.pathname}${url.search}`, method,
          headers: { ...hopHeaders, host: url.host },
          body: method === 'POST' ? body : undefined,
        }, signal, (status, headers) => {
          // A redirect's body is read and dropped, so the connection stays usable (a huge one is
          // cut off); HEAD, 204 and 304 have none by definition, and a gzip header on a 304 is
          // legal, so nothing is decoded.
          if (redirectLocation(status, headers) !== undefined || method === 'HEAD' || status === 204 || status === 304) return { discard: true, maxBytes: REDIRECT_BODY_MAX };
          const encoding = headers['content-encoding'];
          return { maxBytes: req.maxBodyBytes, contentEncoding: typeof encoding === 'string' ? encoding : undefined, stopWhen: req.stopWhen };
        });
      } catch (err) {
        const c = classifyError(err, deadline.aborted);
        return fail(c.errorCode, c.message);
      }

      const location = redirectLocation(res.status, res.headers);
      if (location !== undefined) {
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return fail('BAD_URL', `bad redirect target ${location}`);
        }
        redirects.push(next.href);
        if (seen.has(next.href)) return fail('REDIRECT_LOOP', `redirect loop at ${next.href}`);
        if (redirects.length > maxRedirects) return fail('REDIRECT_LIMIT', `more than ${maxRedirects} redirects`);
        seen.add(next.href);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }

      const headers: Record<string, string> = {};
      const setCookieNames: string[] = [];
      for (const k in res.headers) {
        const v = res.headers[k];
        if (v === undefined) continue;
        if (k === 'set-cookie') {
          for (const c of Array.isArray(v) ? v : [v]) setCookieNames.push(c.split('=')[0]!.trim());
          continue;
        }
        headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { ok: true, status: res.status, headers, setCookieNames, body: res.body, bodyTruncated: res.truncated, finalUrl: url.href, redirects, timingMs: elapsed() };
    }
  }

  return {
    name: opts.name,
    configured,
    fetch: (req) => fetchOnce(req).catch((err: unknown) => ({ ok: false as const, errorCode: 'PROTOCOL' as const, message: String(err), redirects: [], timingMs: 0 })),
    release: (hosts) => {
      for (const host of hosts) dispatchers.release(host.replace(/^\[|\]$/g, ''));
    },
    close: () => dispatchers.close(),
  };
}
