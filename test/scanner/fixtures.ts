// Recorded-evidence builders: a good baseline scan and one-change variants, for table-driven check tests.
import { toView } from '../../src/scanner/probe.ts';
import { buildMatrix, usableNetworks } from '../../src/scanner/matrix.ts';
import { applySoftBlocks } from '../../src/scanner/soft-block.ts';
import { addContent } from '../../src/scanner/content.ts';
import { analyzePage, parseLinkHeader } from '../../src/scanner/page.ts';
import { readRobots } from '../../src/scanner/robots.ts';
import { agentHeaders, BROWSER_UA, controlHeaders, getRoster, headerValue, probeableAgents, productArrivals, type HeaderList } from '../../src/scanner/roster.ts';
import { AUX_PATHS } from '../../src/scanner/gather.ts';
import type { ScanEvidence } from '../../src/scanner/evidence.ts';
import type { FetchedView, NetworkName } from '../../src/scanner/types.ts';
import { htmlPage } from '../world/site.ts';

export const DOMAIN = 'shop.world-fixtures.com';

export interface Resp { status?: number; headers?: Record<string, string>; body?: string; cookies?: string[]; error?: string; redirects?: string[] }

export function fetched(key: string, url: string, r: Resp, opts: { network?: NetworkName; isHome?: boolean; ua?: string; arrival?: HeaderList } = {}): FetchedView {
  const ua = opts.arrival ? headerValue(opts.arrival, 'user-agent')! : opts.ua ?? BROWSER_UA;
  const spec = { key, network: opts.network ?? 'networkA', url, userAgent: ua, isHome: opts.isHome ?? false, ...(opts.arrival ? { arrival: opts.arrival } : {}) };
  if (r.error) return toView(spec, { ok: false, errorCode: r.error as never, message: r.error, redirects: [], timingMs: 1 });
  return toView(spec, {
    ok: true, status: r.status ?? 200, headers: { 'content-type': 'text/html', ...(r.headers ?? {}) }, setCookieNames: r.cookies ?? [],
    body: Buffer.from(r.body ?? ''), bodyTruncated: false, finalUrl: url, redirects: r.redirects ?? [], timingMs: 1,
  });
}

export interface BaselineOptions {
  home?: Resp;
  agent?: (token: string, network: NetworkName) => Resp | undefined;
  control?: (network: NetworkName) => Resp | undefined;
  robots?: Resp;
  robotsAgent?: Resp;
  files?: Record<string, Resp>;
  markdown?: Resp;
  /** GET / as each product asking for Markdown by its Accept (default: the home page). */
  products?: Record<string, Resp>;
  followups?: Record<string, [url: string, r: Resp]>;
  /** agent-readiness's own unsigned and Web Bot Auth-signed home-page requests; absent = signing off. */
  wba?: { unsigned: (n: NetworkName) => Resp | undefined; signed: (n: NetworkName) => Resp | undefined };
  /** The DNS discovery lookups (absent = no resolver configured). */
  dns?: ScanEvidence['dns'];
}

export const HOME = htmlPage().replaceAll('{domain}', DOMAIN);

/** An open, healthy general site; every option replaces one piece of it. */
export function evidence(o: BaselineOptions = {}): ScanEvidence {
  const url = `https://${DOMAIN}/`;
  const home: Resp = o.home ?? { body: HOME };
  const roster = getRoster();
  const controls = {
    networkA: fetched('control:browser', url, o.control?.('networkA') ?? home, { network: 'networkA', isHome: true, arrival: controlHeaders() }),
    networkB: fetched('control:browser', url, o.control?.('networkB') ?? home, { network: 'networkB', isHome: true, arrival: controlHeaders() }),
  };
  const cells: ScanEvidence['cells'] = {};
  for (const a of probeableAgents()) {
    cells[a.token] = {
      networkA: fetched(`grid:${a.token}`, url, o.agent?.(a.token, 'networkA') ?? home, { network: 'networkA', isHome: true, arrival: agentHeaders(a) }),
      networkB: fetched(`grid:${a.token}`, url, o.agent?.(a.token, 'networkB') ?? home, { network: 'networkB', isHome: true, arrival: agentHeaders(a) }),
    };
  }
  const robotsResp = o.robots ?? { body: `User-agent: *\nAllow: /\nSitemap: https://${DOMAIN}/sitemap.xml\n`, headers: { 'content-type': 'text/plain' } };
  const robotsFetch = fetched('robots:browser', `${url}robots.txt`, robotsResp);
  const robotsAgentFetch = fetched('robots:ChatGPT-User', `${url}robots.txt`, o.robotsAgent ?? robotsResp);
  const robots = readRobots(robotsFetch.ok ? { ok: true, status: robotsFetch.status, contentType: robotsFetch.contentType, body: robotsFetch.body, edgeOutcome: robotsFetch.outcome } : { ok: false });
  const textLength = (v: FetchedView) => analyzePage(v.outcome === 'pass' ? v.body : '').text.length;
  // As the engine does: every passing answer carries its visible-text length in its record.
  const measure = (v: FetchedView) => { if (v.outcome === 'pass') v.record.textChars = textLength(v); };
  Object.values(controls).forEach(measure);
  for (const nets of Object.values(cells)) Object.values(nets).forEach(measure);
  // As the engine does: soft blocks before the matrix, each agent's page against the browser's after.
  const softBlocks = applySoftBlocks(controls, cells);
  const rows = buildMatrix({ roster, robots, controls, cells, textLength });
  addContent(rows, controls, cells, softBlocks);
  const usable = usableNetworks(controls);
  const homeView = usable[0] ? controls[usable[0]] : null;
  const page = homeView ? analyzePage(homeView.body) : null;
  const files: Record<string, FetchedView> = {};
  const defaults: Record<string, Resp> = { '/sitemap.xml': { body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${url}</loc></url></urlset>`, headers: { 'content-type': 'application/xml' } } };
  for (const p of AUX_PATHS) files[p] = fetched(`file:${p}`, `https://${DOMAIN}${p}`, o.files?.[p] ?? defaults[p] ?? { status: 404, body: 'not found' });
  const followups: Record<string, FetchedView> = {};
  for (const [k, [u, r]] of Object.entries(o.followups ?? {})) {
    const product = productArrivals().find((p) => `markdown:${p.id}` === k);
    followups[k] = fetched(k, u, r, product ? { arrival: product.request.headers } : {});
  }
  const products: Record<string, FetchedView> = {};
  for (const p of productArrivals().filter((x) => x.asks === 'accept')) {
    products[p.id] = fetched(`markdown:${p.id}`, url, o.products?.[p.id] ?? home, { isHome: true, arrival: p.request.headers });
  }
  return {
    domain: DOMAIN, scannedAt: new Date('2026-11-22T00:00:00Z'), roster, robots, robotsFetch, robotsAgentFetch, controls, usable, cells, rows,
    wba: o.wba ? wbaViews(o.wba, home) : null, home: homeView, page, homeLinks: homeView && page ? [...parseLinkHeader(homeView.headers['link']), ...page.links] : [],
    files, markdown: fetched('content:markdown', url, o.markdown ?? home), products, followups,
    ...(o.dns ? { dns: o.dns } : {}),
  };
}

function wbaViews(w: NonNullable<BaselineOptions['wba']>, home: Resp): NonNullable<ScanEvidence['wba']> {
  const url = `https://${DOMAIN}/`;
  const ua = 'agent-readiness/1.0 (+https://agent-readiness.example/methodology.md)';
  const pair = (n: NetworkName) => ({
    unsigned: fetched('wba:unsigned', url, w.unsigned(n) ?? home, { network: n, isHome: true, ua }),
    signed: fetched('wba:signed', url, w.signed(n) ?? home, { network: n, isHome: true, ua }),
  });
  return { networkA: pair('networkA'), networkB: pair('networkB') };
}
