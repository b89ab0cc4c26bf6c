/**
 * A CONNECT tunnel through a forward proxy, for one TLS connection to a site.
 *
 * Opened with node's own HTTP client, one request per tunnel and no agent: the proxy sees
 * the same request undici's ProxyAgent sends (`CONNECT host:port`, Host, Proxy-Connection,
 * Connection: close), and the proxy URL's credentials, if any, as Proxy-Authorization, as
 * curl and npm send them. An undici `Client` per tunnel cost more CPU (a client, a parser
 * instance and an "upgrade" error with its stack trace per tunnel: bench/results.md).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { errors } from 'undici';
import { isTlsErrorCode } from './errors.ts';

/** As long as undici gives a connection (its connector's default), for the whole CONNECT exchange. */
export const TUNNEL_TIMEOUT_MS = 10_000;

export interface TunnelProxy {
  readonly https: boolean;
  readonly host: string;
  readonly port: number;
  /** `Basic …` from the URL's user and password, percent-decoded; undefined without credentials. */
  readonly authorization: string | undefined;
  /** Trust for an https proxy's certificate: the egress's own (its `ca`, or the default store). */
  readonly secureContext: SecureContext | undefined;
  /** For the whole CONNECT exchange. */
  readonly timeoutMs: number;
}

/** The proxy URL parsed once per egress; throws on a URL that is not http(s). */
export function parseTunnelProxy(proxyUrl: string, secureContext?: SecureContext, timeoutMs = TUNNEL_TIMEOUT_MS): TunnelProxy {
  const url = new URL(proxyUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported proxy scheme ${url.protocol}`);
  const https = url.protocol === 'https:';
  const credentials = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  return {
    https,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (https ? 443 : 80),
    authorization: credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`,
    secureContext,
    timeoutMs,
  };
}

/**
 * Asks `proxy` to CONNECT to `authority` (host:port) and calls back with the tunnel's socket, or
 * with undici's error for a refusal (the one classifyError maps to PROXY), a timeout, or the
 * socket's own error. Exactly one callback. The function returned abandons a tunnel still being
 * opened (shutdown), calling back with `reason`.
 */
export function openTunnel(proxy: TunnelProxy, authority: string, callback: (err: Error | null, socket: Socket | null) => void): (reason: Error) => void {
  let done = false;
  const finish = (err: Error | null, socket: Socket | null) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    callback(err, socket);
  };
  const headers: Record<string, string> = { host: authority, 'proxy-connection': 'keep-alive' };
  if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
  const options: RequestOptions & { secureContext?: SecureContext } = { host: proxy.host, port: proxy.port, method: 'CONNECT', path: authority, headers, agent: false };
  if (proxy.https) {
    if (proxy.secureContext) options.secureContext = proxy.secureContext;
    // node's https takes SNI and the name checked from the Host header, which here names the site.
    options.servername = isIP(proxy.host) ? '' : proxy.host;
  }
  const req: ClientRequest = (proxy.https ? httpsRequest : httpRequest)(options);
  // Not req.setTimeout: that sets the socket's idle timeout, which would stay on the tunnel.
  const timer = setTimeout(() => {
    const err = new errors.ConnectTimeoutError(`the proxy did not open a tunnel to ${authority} within ${proxy.timeoutMs} ms`);
    req.destroy(err);
    finish(err, null);
  }, proxy.timeoutMs);
  req.once('connect', (res, socket, head) => {
    res.resume();
    if (done) return void socket.destroy(); // abandoned or timed out as the answer arrived
    if (res.statusCode !== 200) {
      socket.on('error', () => undefined).destroy();
      return finish(new errors.RequestAbortedError(`Proxy response (${res.statusCode}) !== 200 when HTTP Tunneling`), null);
    }
    // A proxy may send the first bytes of the tunnel with its answer.
    if (head.length > 0) socket.unshift(head);
    socket.setNoDelay(true);
    finish(null, socket);
  });
  // An https proxy whose certificate fails is the proxy's fault, not the site's: undici's own error for it (PROXY).
  req.on('error', (err: Error & { code?: string }) => finish(proxy.https && isTlsErrorCode(err.code) ? new errors.SecureProxyConnectionError(err, `TLS to the https proxy failed: ${err.message}`) : err, null));
  req.end();
  return (reason) => {
    if (done) return;
    req.destroy(reason);
    finish(reason, null);
  };
}
