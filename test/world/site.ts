/**
 * Declarative scenarios and the one HTTPS server that plays all of them,
 * dispatching on the Host header. Which network a request came through is
 * read from the connection's source address, which the world's proxies bind.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { agentForUserAgent } from '../../src/scanner/roster.ts';
import type { CheckStatus, ContentResult, EdgeOutcome, Headline, MatrixVerdict, NetworkName, Profile } from '../../src/scanner/types.ts';
import type { RobotsSays } from '../../src/scanner/robots.ts';
import type { ScanIntent } from '../../src/scanner/intent-request.ts';
import type { EdgeResponse } from './vendors.ts';
import type { StrictVerifier } from './web-bot-auth/index.ts';
import type { WorldDns } from './doh.ts';
import type { PartiesExpectation } from '../scanner/expect-parties.ts';

export type WorldNetwork = NetworkName | 'user' | 'direct';
/** browser = no roster token in the UA; agents = any roster agent; or a list of tokens. */
export type Who = 'browser' | 'agents' | 'all' | readonly string[];

export interface EdgeRule {
  who: Who;
  networks?: readonly WorldNetwork[];
  /** Paths the rule covers (exact); default every path. */
  paths?: readonly string[];
  /** Only requests lacking any of these headers (a bot manager that wants Fetch Metadata, say). */
  lacks?: readonly string[];
  respond: EdgeResponse | 'reset' | 'hang';
}

export interface FileSpec { status?: number; type?: string; body: string; headers?: Record<string, string> }

export interface Expectation {
  headline: Headline;
  vantagesConfirmed?: boolean;
  confidence?: 'high' | 'medium' | 'low';
  profile?: Profile | null;
  /** token -> verdict */
  verdicts?: Record<string, MatrixVerdict>;
  /** token or 'control' -> [networkA, networkB] */
  edge?: Record<string, readonly [EdgeOutcome, EdgeOutcome]>;
  robotsSays?: Record<string, RobotsSays>;
  /** token -> vendors that must be attributed */
  vendors?: Record<string, readonly string[]>;
  checks?: Record<string, CheckStatus>;
  /** Words a check's detail must contain: id -> pattern, in the current rubric and in the preview. */
  details?: Record<string, RegExp>;
  previewDetails?: Record<string, RegExp>;
  /** token -> patterns its matrix notes must include, one note per pattern. */
  notes?: Record<string, readonly RegExp[]>;
  /** What probeMethod, the disclosure of every request, must say. */
  probeMethod?: RegExp;
  /** Checks of the preview rubric: id -> [status, generation matched (absent = none reported)]. */
  previewChecks?: Record<string, readonly [CheckStatus, string?]>;
  scoreNull?: boolean;
  /** Patterns the report's reasons must include, one reason per pattern. */
  reasons?: readonly RegExp[];
  /** report.robotsTxt: whether it varies, how many copies, who got a copy of their own (token -> [networkA, networkB] requester lists), the managed block. */
  robotsTxt?: {
    variesByRequester: boolean;
    copies: number;
    /** Agents whose copy is not the browser's, on the robots network; and who got a copy of their own on the second network. */
    ownCopy?: readonly string[];
    ownCopySecond?: readonly string[];
    managed?: { vendor: string; agents: readonly string[] } | null;
  };
  /** token -> MatrixEntry.content per network, and what differs (issue 36 item 2). */
  content?: Record<string, { networks: readonly [ContentResult, ContentResult]; differs?: readonly string[]; agentServing?: readonly string[] }>;
  /** The robots.txt patch: agents it edits, and agents left to a managed block's setting. */
  robotsPatch?: { agents: readonly string[]; managed?: readonly string[] } | null;
  /** report.intent for a scan with `scan.intent` (grading by intent); null: the report has none. */
  intent?: IntentExpectation | null;
  /** Who refused, what each agent is charged, platform fixes (issue 36 items 4, 5): test/scanner/expect-parties.ts. */
  refusedBy?: PartiesExpectation['refusedBy'];
  offers?: PartiesExpectation['offers'];
  platformFixes?: PartiesExpectation['platformFixes'];
}

export interface IntentExpectation {
  met: number;
  decided: number;
  roles: Record<string, {
    asIntended: boolean | null;
    robotsSays?: string;
    edgeDoes?: string;
    missed?: readonly string[];
    /** The fix: null for none, else its text's pattern, the platform it names and its robots.txt lines. */
    fix?: null | { text: RegExp; platform: string | null; robotsTxt: string | null; docUrl?: string | null };
  }>;
}

export interface Scenario {
  /** Host label: the site is <name>.world-fixtures.com */
  name: string;
  about: string;
  presence?: Record<string, string>;
  presenceCookies?: readonly string[];
  /** robots.txt text (200 text/plain), a full spec, or null for 404. Default: allow all + sitemap. */
  robots?: string | FileSpec | null;
  home?: string;
  homeHeaders?: Record<string, string>;
  /** Answer to GET / with Accept: text/markdown. */
  markdown?: FileSpec;
  files?: Record<string, FileSpec>;
  /** What any other path answers (an SPA host's index.html with 200); default a 404 page. */
  fallback?: FileSpec;
  edge?: readonly EdgeRule[];
  /**
   * Requests as agent-readiness (our own UA) to / get this unless their Web Bot Auth signature passes
   * the world's strict verifier (web-bot-auth/); a replayed nonce gets 429. The verdict is in `x-world-wba`.
   */
  signedOnly?: EdgeResponse;
  /** Its DNS discovery records, as the world's DoH resolver answers them (doh.ts); none: NXDOMAIN. */
  dns?: WorldDns;
  /** How the scan of this scenario is configured. */
  scan?: { networkB?: 'unconfigured'; probeTimeoutMs?: number; intent?: ScanIntent };
  expect: Expectation;
}

export const WORLD_SUFFIX = 'world-fixtures.com';

export const LOREM = 'Agent readiness matters because assistants read the web for people. '
  + 'This site explains its products in plain words, lists its prices, describes how support works, and links every document a visitor could need. '
  + 'Each section has a heading, a short summary and a longer explanation, so a reader who lands here from a search or an assistant finds the answer without running any script. '
  + 'The company was founded to make small shops visible online, and it still serves them: catalogues, opening hours, delivery areas and returns are all described on these pages. '
  + 'Nothing here needs JavaScript to read; forms post to ordinary endpoints and every image has a text alternative. '
  + 'Contact details, the legal notice and the privacy policy are one click away from every page, and each page states when it was last reviewed.';

export function htmlPage(o: { title?: string; text?: string; lang?: string; canonical?: string | null; jsonLd?: string | null; head?: string; body?: string } = {}): string {
  const title = o.title ?? 'Example Shop: products and support';
  const head = [
    `<title>${title}</title>`,
    '<meta name="description" content="Products, prices and support of an example shop.">',
    o.canonical === null ? '' : `<link rel="canonical" href="${o.canonical ?? 'https://{domain}/'}">`,
    o.jsonLd === null ? '' : `<script type="application/ld+json">${o.jsonLd ?? '{"@context":"https://schema.org","@type":"Organization","name":"Example Shop","url":"https://{domain}/"}'}</script>`,
    o.head ?? '',
  ].join('');
  return `<!doctype html><html lang="${o.lang ?? 'en'}"><head>${head}</head><body><main><h1>${title}</h1><p>${o.text ?? LOREM}</p>${o.body ?? ''}</main></body></html>`;
}

export const DEFAULT_ROBOTS = 'User-agent: *\nAllow: /\n\nSitemap: https://{domain}/sitemap.xml\n';
export const SITEMAP = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://{domain}/</loc></url></urlset>';

export function networkOf(remote: string | undefined): WorldNetwork {
  const a = (remote ?? '').replace(/^::ffff:/, '');
  return a === '127.0.0.2' ? 'networkA' : a === '127.0.0.3' ? 'networkB' : a === '127.0.0.4' ? 'user' : 'direct';
}

function ruleMatches(rule: EdgeRule, token: string | null, network: WorldNetwork, path: string, req: IncomingMessage): boolean {
  if (rule.networks && !rule.networks.includes(network)) return false;
  if (rule.paths && !rule.paths.includes(path)) return false;
  if (rule.lacks && rule.lacks.every((h) => req.headers[h.toLowerCase()] !== undefined)) return false;
  if (rule.who === 'all') return true;
  if (rule.who === 'browser') return token === null;
  if (rule.who === 'agents') return token !== null;
  return token !== null && rule.who.includes(token);
}

function send(res: ServerResponse, s: Scenario, domain: string, r: EdgeResponse | FileSpec, extraHeaders: Record<string, string> = {}): void {
  const fill = (t: string) => t.replaceAll('{domain}', domain);
  const headers: Record<string, string | string[]> = { ...(s.presence ?? {}), ...extraHeaders };
  if ('type' in r && r.type) headers['content-type'] = r.type;
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k] = fill(v);
  if ('location' in r && r.location) headers['location'] = fill(r.location);
  const cookies = [...(s.presenceCookies ?? []), ...(('cookies' in r && r.cookies) || [])];
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(r.status ?? 200, headers);
  res.end(fill(r.body ?? ''));
}

/** Serve one request of scenario `s` (the caller has already waited the world's latency). */
export function serveScenario(s: Scenario, domain: string, req: IncomingMessage, res: ServerResponse, wba?: StrictVerifier): void {
  const path = new URL(req.url ?? '/', 'https://x').pathname;
  const token = agentForUserAgent(String(req.headers['user-agent'] ?? ''))?.token ?? null;
  const network = networkOf(req.socket.remoteAddress);
  const rule = (s.edge ?? []).find((r) => ruleMatches(r, token, network, path, req));
  if (rule?.respond === 'reset') return void req.socket.destroy();
  if (rule?.respond === 'hang') return; // never answer: the prober's timeout decides
  if (rule) return send(res, s, domain, rule.respond);
  if (s.signedOnly && wba && path === '/' && /agent-readiness\//.test(String(req.headers['user-agent'] ?? ''))) {
    const page = { status: 200, type: 'text/html; charset=utf-8', body: s.home ?? htmlPage() };
    const replay = { status: 429, type: 'text/plain', body: 'this signature was already used; sign the request again', headers: { 'retry-after': '0' } };
    void wba.verify(req).then((v) => {
      const verdict = { 'x-world-wba': `${v.outcome}; reason=${v.reason}` };
      send(res, s, domain, v.outcome === 'verified' ? page : v.outcome === 'replayed' ? replay : s.signedOnly!, verdict);
    });
    return;
  }

  if (path === '/robots.txt') {
    if (s.robots === null) return send(res, s, domain, { status: 404, type: 'text/plain', body: 'not found' });
    const spec: FileSpec = typeof s.robots === 'string' || s.robots === undefined ? { body: s.robots ?? DEFAULT_ROBOTS, type: 'text/plain' } : s.robots;
    return send(res, s, domain, { type: 'text/plain', ...spec });
  }
  if (path === '/') {
    if (s.markdown && /text\/markdown/.test(String(req.headers.accept ?? ''))) return send(res, s, domain, { type: 'text/markdown', ...s.markdown });
    return send(res, s, domain, { status: 200, type: 'text/html; charset=utf-8', body: s.home ?? htmlPage(), headers: s.homeHeaders });
  }
  const file = s.files?.[path] ?? (path === '/sitemap.xml' ? { body: SITEMAP, type: 'application/xml' } : undefined);
  if (file) return send(res, s, domain, { type: 'text/plain', ...file });
  return send(res, s, domain, s.fallback ?? { status: 404, type: 'text/html', body: '<!doctype html><title>Not found</title><p>Not found</p>' });
}
