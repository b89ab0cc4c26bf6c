/**
 * undici dispatchers per (egress, TLS server name).
 *
 * We always send the request to the *checked IP address* and carry the real
 * name in the Host header and the TLS SNI / certificate check. That is what
 * closes the DNS-rebinding window, and it works the same whether egress is
 * direct or goes through a forward proxy (the proxy is asked to CONNECT to the
 * checked IP, so it never resolves the name itself; plain http goes through
 * ProxyAgent).
 * Because the SNI name is fixed per dispatcher, dispatchers are cached per
 * name. The bound must exceed the sites scanned at once: at 32 names, 100
 * concurrent scans evicted each other's dispatchers mid-scan and 7,230 of 7,400
 * requests opened a new TLS connection (bench/results.md). An idle dispatcher
 * holds no sockets once keep-alive lapses, so a large bound costs little.
 */
import { createSecureContext, type SecureContext } from 'node:tls';
import { LRUCache } from 'lru-cache';
import { Agent, buildConnector, errors, ProxyAgent, type Dispatcher } from 'undici';
import { TlsSessions } from './tls-sessions.ts';
import { openTunnel, parseTunnelProxy, type TunnelProxy } from './tunnel.ts';

export interface DispatcherOptions {
  proxyUrl?: string;
  ca?: string | Buffer | Array<string | Buffer>;
  /** Keep-alive sockets per origin; requests beyond it queue (the per-site politeness bound lives in the scanner). */
  connections?: number;
}

const MAX_CACHED = 2048;

export class DispatcherCache {
  readonly #opts: DispatcherOptions;
  // Evicting closes gracefully: requests in flight on the evicted dispatcher still complete.
  // On shutdown every dispatcher is destroyed instead, so dispose must not start a close too.
  #shuttingDown = false;
  readonly #cache = new LRUCache<string, Dispatcher>({ max: MAX_CACHED, dispose: (d) => { if (!this.#shuttingDown) void d.close().catch(() => undefined); } });
  /** Built once: handing `ca` to every TLS connect would rebuild a context per socket (a measurable CPU cost). */
  readonly #secureContext: SecureContext;
  readonly sessions = new TlsSessions();
  /** The proxy HTTPS goes through (a CONNECT tunnel per connection), parsed once. */
  readonly #tunnelProxy: TunnelProxy | undefined;
  /** Tunnels still being opened, abandoned on shutdown so none outlives close(). */
  readonly #tunnelling = new Set<(reason: Error) => void>();

  constructor(opts: DispatcherOptions) {
    this.#opts = opts;
    // Without `ca` too: tls.connect would otherwise build a context from the default store
    // (roots + NODE_EXTRA_CA_CERTS) for every socket, which is how the service runs.
    this.#secureContext = createSecureContext(opts.ca ? { ca: opts.ca } : {});
    this.#tunnelProxy = opts.proxyUrl ? parseTunnelProxy(opts.proxyUrl, this.#secureContext) : undefined;
  }

  /**
   * TLS to `servername`, through the proxy's CONNECT tunnel when there is one (tunnel.ts),
   * resuming this egress's session for the name (tls-sessions.ts). undici's ProxyAgent builds its
   * TLS connector once, with no way to offer a session, so the tunnel is opened here.
   */
  #tlsConnector(servername: string): buildConnector.connector {
    const proxy = this.#tunnelProxy;
    return this.sessions.connector(servername, (session) => {
      // maxCachedSessions 0: `sessions` offers the session; undici's own cache, built afresh per
      // connection here, would only hold WeakRefs to each socket's tickets for the collector to clear.
      const tls = buildConnector({ servername, secureContext: this.#secureContext, session, allowH2: false, maxCachedSessions: 0 });
      if (!proxy) return tls;
      return (opts, callback) => {
        const authority = opts.host && /:\d+$/.test(opts.host) ? opts.host : `${opts.host ?? opts.hostname}:${opts.port || 443}`;
        const abandon = openTunnel(proxy, authority, (err, socket) => {
          this.#tunnelling.delete(abandon);
          if (err || !socket) return callback(err ?? new Error('no tunnel'), null);
          tls({ ...opts, httpSocket: socket }, callback);
        });
        this.#tunnelling.add(abandon);
      };
    });
  }

  /** A dispatcher whose TLS checks the certificate against `servername` (ignored for plain http). */
  get(servername: string, tls: boolean): Dispatcher {
    const key = tls ? `tls:${servername}` : 'plain';
    let d = this.#cache.get(key);
    if (d) return d;
    const common = { connections: this.#opts.connections ?? 16, keepAliveTimeout: 4_000, allowH2: false };
    if (tls) d = new Agent({ connect: this.#tlsConnector(servername), ...common });
    else d = this.#opts.proxyUrl ? new ProxyAgent({ uri: this.#opts.proxyUrl, ...common }) : new Agent(common);
    this.#cache.set(key, d);
    return d;
  }

  /**
   * A scan is done with `servername`: its dispatcher leaves the cache and closes, its requests
   * in flight finishing first. Without this a finished scan's connections idled until keep-alive
   * lapsed (4 s, or as long as the site's Keep-Alive hint asks), holding each connection's TLS
   * buffers, about 70 KiB of native memory and 15 KiB of heap (bench/results.md). A later request
   * for the name gets a new dispatcher, and its TLS session is still offered (`sessions`).
   */
  release(servername: string): void {
    this.#cache.delete(`tls:${servername}`);
  }

  async close(): Promise<void> {
    const all = [...this.#cache.values()];
    this.#shuttingDown = true;
    this.#cache.clear();
    const closing = new errors.ClientDestroyedError();
    for (const abandon of [...this.#tunnelling]) abandon(closing);
    await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
  }
}
