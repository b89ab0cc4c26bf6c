/**
 * POST /scan-mcp target rules (service spec "POST /scan-mcp", Limits): https
 * only, port 443 only, no IPs, localhost or internal names, no credentials in
 * the URL, and nothing inside the zone the scanner itself runs in (422).
 */
import { checkHostName } from '../net/guard.ts';

export type TargetVerdict =
  | {
    ok: true;
    /** The endpoint to probe first, or null for a bare domain (manifest, then `/mcp`). */
    url: string | null;
    host: string;
    /** An endpoint with a query string may carry a token: its report is never persisted. */
    hasQuery: boolean;
  }
  | { ok: false; status: 400 | 422; error: string; hint: string };

export interface TargetOptions {
  /** DNS zone the scanner runs in (SCANNER_ZONE); targets at or below it cannot be measured from inside. */
  scannerZone?: string;
}

const HINT = 'Give https://host/path (port 443) or a bare domain such as mcp.example.com.';

export function validateMcpTarget(target: string, opts: TargetOptions = {}): TargetVerdict {
  const raw = target.trim();
  if (!raw) return bad('The target is empty.');
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `https://${raw}`);
  } catch {
    return bad('The target is not a URL or domain.');
  }
  if (url.protocol !== 'https:') return bad('MCP targets must use https on port 443.');
  // URL drops an explicit :443 for https, so any port left is another one.
  if (url.port !== '') return bad('MCP targets must use https on port 443.');
  if (url.username || url.password) return bad('The target must not carry credentials; the scanner never sends any.');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const named = checkHostName(url.hostname);
  if (!named.ok) return bad(`This host cannot be scanned: ${named.reason}.`);
  const zone = opts.scannerZone?.toLowerCase().replace(/^\.+|\.$/g, '');
  if (zone && (host === zone || host.endsWith(`.${zone}`))) {
    return {
      ok: false, status: 422,
      error: "This target is inside the scanner's own zone and cannot be measured from it.",
      hint: 'Scan it from outside that network, e.g. with the MCP Inspector.',
    };
  }
  url.hash = '';
  const bare = (url.pathname === '/' || url.pathname === '') && url.search === '';
  return { ok: true, url: bare ? null : url.href, host, hasQuery: url.search !== '' };
}

function bad(error: string): TargetVerdict {
  return { ok: false, status: 400, error, hint: HINT };
}
