/**
 * Protected previews from CI: `--header 'Name: value'` (repeatable) and AGENT_READINESS_HEADERS
 * (one `Name: value` per line, so a secret stays out of argv and logs) add headers to the
 * requests a scan sends to the scanned origin, and to nothing else (src/net/egress.ts applies
 * them per hop). Values are secrets: no message, output or log ever repeats one; names are shown.
 *
 * And the notice that keeps anyone from gating production on a preview: a deployment host
 * (*.vercel.app, *.netlify.app, *.pages.dev) answering with `X-Robots-Tag: noindex` is a preview.
 */
import type { Egress } from '../net/egress.ts';

export const HEADERS_ENV = 'AGENT_READINESS_HEADERS';

export type ExtraHeader = readonly [name: string, value: string];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Hop-by-hop and framing headers the HTTP client owns. */
const TRANSPORT = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-authorization', 'proxy-connection']);
/** Headers the probes send themselves: overriding them would change how the agents arrive. */
const PROBE_OWN = /^(user-agent|accept(-[a-z]+)?|sec-[a-z-]+|upgrade-insecure-requests|from|cache-control|pragma|priority)$/;

export type HeadersParsed = { ok: true; headers: ExtraHeader[] } | { ok: false; message: string };

/** `--header` values, then the environment variable's lines; every problem names where it came from, never the value. */
export function parseExtraHeaders(flags: readonly string[], envValue: string | undefined): HeadersParsed {
  const sources = [
    ...flags.map((line, i) => ({ line, where: `--header #${i + 1}` })),
    ...(envValue ?? '').split(/\r?\n/).map((line, i) => ({ line, where: `${HEADERS_ENV} line ${i + 1}` })).filter((s) => s.line.trim() !== ''),
  ];
  const headers: ExtraHeader[] = [];
  for (const { line, where } of sources) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, message: `${where} must be 'Name: value' (the value is not shown)` };
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!TOKEN.test(name)) return { ok: false, message: `${where}: "${name.slice(0, 40)}" is not a valid header name` };
    const lower = name.toLowerCase();
    if (TRANSPORT.has(lower)) return { ok: false, message: `${where}: ${name} is set by the HTTP client and cannot be given` };
    if (PROBE_OWN.test(lower)) return { ok: false, message: `${where}: ${name} is part of how each agent arrives and cannot be replaced` };
    if (!value || /[\r\n\0]/.test(value) || /[^\t\x20-\x7e\x80-\xff]/.test(value)) return { ok: false, message: `${where}: ${name} needs a value on one line of printable characters (the value is not shown)` };
    if (headers.some(([n]) => n.toLowerCase() === lower)) return { ok: false, message: `${where}: ${name} is given twice` };
    headers.push([name, value]);
  }
  return { ok: true, headers };
}

/** Every request through `inner` carries `headers` on the hops whose origin is `origin`, and only there. */
export function withOriginHeaders(inner: Egress, origin: string, headers: readonly ExtraHeader[]): Egress {
  if (headers.length === 0) return inner;
  // As URL.origin spells it (a default port dropped), which is what the egress compares per hop.
  const originHeaders = { origin: new URL(origin).origin, headers: Object.fromEntries(headers) };
  return {
    name: inner.name, configured: inner.configured,
    fetch: (req) => inner.fetch({ ...req, originHeaders }),
    release: (hosts) => inner.release(hosts),
    close: () => inner.close(),
  };
}

/** The label every output format carries when headers were sent. */
export function previewLabel(origin: string, names: readonly string[]): string {
  return `authenticated preview: ${names.join(', ')} sent only to ${origin} (values not shown)`;
}

const PREVIEW_HOSTS = ['vercel.app', 'netlify.app', 'pages.dev'];

/**
 * A notice when the scanned host is a platform's deployment host and its home page answered
 * `X-Robots-Tag: noindex` (what Vercel sends on preview deployments): the score describes a
 * preview, not production. Read from the report, so hosted, local and preview runs agree.
 */
export function previewDeploymentNotice(report: { domain: string; checks: ReadonlyArray<{ id: string; status: string; detail?: string }> }): string | null {
  const suffix = PREVIEW_HOSTS.find((s) => report.domain === s || report.domain.endsWith(`.${s}`));
  if (!suffix) return null;
  const noindex = report.checks.find((c) => c.id === 'policy.not-noindexed');
  if (noindex?.status !== 'fail' || !/^X-Robots-Tag:/i.test(noindex.detail ?? '')) return null;
  return `this looks like a preview deployment (a ${suffix} host answering X-Robots-Tag: noindex): its score is not your production site's, so do not gate a production release on it`;
}
