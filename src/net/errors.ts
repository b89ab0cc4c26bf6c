/**
 * Stable error codes for a failed probe. Callers (classifier, MCP scanner,
 * CLI) switch on these strings, so they never change meaning.
 */
export type ProbeErrorCode =
  | 'DNS_NXDOMAIN' | 'DNS_FAIL' | 'GUARD_REFUSED' | 'TIMEOUT' | 'ABORTED' | 'TLS' | 'CONNECT' | 'RESET'
  | 'REDIRECT_LIMIT' | 'REDIRECT_LOOP' | 'PROXY' | 'UNCONFIGURED' | 'BAD_URL' | 'PROTOCOL'
  /** Our own signer failed, so the request was not sent (never the site's doing). */
  | 'SIGNING';

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_OSSL)/;

/** Is `code` a TLS failure (handshake, certificate)? Also how the tunnel tells a bad https proxy from an unreachable one. */
export const isTlsErrorCode = (code: string | undefined): boolean => TLS_CODES.test(code ?? '');

/** Map an undici / node error to a stable code. `timedOut` tells our own deadline from a caller abort. */
export function classifyError(err: unknown, timedOut: boolean): { errorCode: ProbeErrorCode; message: string } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const message = e.message ?? String(err);
  if (timedOut || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || e.name === 'TimeoutError') {
    return { errorCode: 'TIMEOUT', message };
  }
  // undici reports a refused CONNECT as an "aborted" request; it is the proxy's answer, not a caller abort.
  if (/^Proxy response/.test(message) || e.name === 'ProxyConnectionError' || code === 'UND_ERR_PRX_TLS') return { errorCode: 'PROXY', message };
  if (e.name === 'AbortError' || code === 'UND_ERR_ABORTED') return { errorCode: 'ABORTED', message };
  if (isTlsErrorCode(code) || e.name === 'SecureProxyConnectionError') return { errorCode: 'TLS', message };
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return { errorCode: 'CONNECT', message };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') return { errorCode: 'RESET', message };
  return { errorCode: 'PROTOCOL', message: code ? `${code}: ${message}` : message };
}
