/**
 * Evidence gathering: every request of a scan, as parallel as the
 * per-network bound allows. Round one has no dependencies at all (the grid on
 * both networks, robots.txt, the well-known files, the Markdown request);
 * round two follows up what round one pointed at (sitemap named by
 * robots.txt, sampled llms.txt links and their .md twins, the canonical URL,
 * service-desc targets, an RSL licence). Requests are issued in a fixed order
 * and results are keyed, never ordered by completion, so evidence is
 * deterministic.
 */
import type { Egress } from '../net/egress.ts';
import type { WebBotAuthSigner } from '../signing/web-bot-auth.ts';
import { gridCells, homeUrl, CONTROL_KEY } from './grid.ts';
import { createLimiter, runProbe, type Limiter, type ProbeContext, type ProbeSpec } from './probe.ts';
import { PhaseCounter, type ProgressSink } from './progress.ts';
import { lookUpDnsRecords, type DnsEvidence, type DohSettings } from './dns-lookups.ts';
import { ROBOTS_MAX_BYTES } from './robots.ts';
import { CARD_TYPE, MCP_CARD_KEY } from './mcp-discovery.ts';
import type { RobotsViews } from './robots-copies.ts';
import { agentHeaders, browserUserAgent, controlHeaders, getRoster, headerValue, probeableAgents, productArrivals, type HeaderList, type RosterAgent } from './roster.ts';
import { NETWORKS, type EvidenceRecord, type FetchedView, type NetworkName } from './types.ts';

/** Conventional and well-known paths read in round one (versioned with the rubric). */
export const AUX_PATHS = [
  '/llms.txt', '/llms-full.txt', '/sitemap.xml',
  '/.well-known/api-catalog', '/openapi.json', '/.well-known/openapi.json',
  '/.well-known/mcp/server-card.json', '/.well-known/mcp.json',
  '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/.well-known/agent-card.json',
  '/.well-known/security.txt', '/.well-known/tdmrep.json',
  // rubric-v1.2-preview: ARD v0.91 and the catalog name it replaced (both are read by consumers today).
  '/.well-known/ard.json', '/.well-known/ai-catalog.json',
  // rubric-v1.2-preview: a site's agents.md at its root, where sites publish it (discovery.agents-md says why only there).
  '/agents.md',
  // issue 37: the MCP catalog (server-card extension discovery) and x402's discovery document.
  '/.well-known/mcp/catalog.json', '/.well-known/x402',
] as const;

/** The agent whose copy of robots.txt policy.robots-reachable reads (is robots.txt served to agents too?). */
export const ROBOTS_AGENT = 'ChatGPT-User';

export interface GatherOptions {
  networks: Record<NetworkName, Egress>;
  probeTimeoutMs: number;
  concurrency: number;
  signal: AbortSignal;
  budget: { remaining: number };
  rosterVersion?: string;
  /** Per-network bounds shared by every scan of the same site in this process (see engine.ts). */
  limiters?: Record<NetworkName, Limiter>;
  /** Signs one extra home-page request per network as agent-readiness itself (Web Bot Auth). */
  webBotAuth?: WebBotAuthSigner;
  /** Told as each phase starts and each of its requests finishes (src/scanner/progress.ts). */
  progress?: ProgressSink;
  /** Told of every answer's record as it arrives, before the scan's outcome is known. */
  onRecord?: (record: EvidenceRecord) => void;
  /** The DNS over HTTPS resolver of the DNS discovery lookups (dns-lookups.ts); none: no lookups. */
  doh?: DohSettings;
}

export interface Round1 {
  auxNetwork: NetworkName;
  /** Where the well-known files were read (filesNetworkFor). */
  filesNetwork: NetworkName;
  controls: Record<NetworkName, FetchedView>;
  cells: Record<string, Record<NetworkName, FetchedView>>;
  robotsFetch: FetchedView;
  robotsAgentFetch: FetchedView;
  /** robots.txt as every probed agent asked for it (robots network), and as the browser on the other network. */
  robots: RobotsViews;
  files: Record<string, FetchedView>;
  markdown: FetchedView;
  /** The home page as each product that asks for Markdown in its Accept sends it, by product id (`markdown:<id>`). */
  products: Record<string, FetchedView>;
  /** The home page as agent-readiness itself, unsigned and signed, per network (when signing is on). */
  wba: Record<NetworkName, { unsigned: FetchedView; signed: FetchedView }> | null;
  /** Every view in issue order (the evidence order of the report). */
  all: FetchedView[];
}

export interface Round2 {
  followups: Record<string, FetchedView>;
  /** robots.txt again from the second network, as each agent whose copy differed (by token). */
  robots: Record<string, FetchedView>;
}

export class Gatherer {
  readonly #opts: GatherOptions;
  /** Bodies of robots.txt answers by SHA-256: identical copies (most of them) are decoded and kept once. */
  readonly #robotsBodies = new Map<string, string>();
  readonly #domain: string;
  readonly #limiters: Record<NetworkName, Limiter>;
  readonly #ctx: ProbeContext;
  readonly auxNetwork: NetworkName;

  constructor(domain: string, opts: GatherOptions) {
    this.#domain = domain;
    this.#opts = opts;
    this.#limiters = opts.limiters ?? { networkA: createLimiter(opts.concurrency), networkB: createLimiter(opts.concurrency) };
    this.#ctx = { timeoutMs: opts.probeTimeoutMs, signal: opts.signal, budget: opts.budget, classified: new Map(), textBySha: new Map(), titleBySha: new Map(), bodyBySha: new Map(), digestBySha: new Map() };
    // Site files are read from one network: networkA, unless it has no route (robots.txt twice there, see methodology).
    this.auxNetwork = opts.networks.networkA.configured || !opts.networks.networkB.configured ? 'networkA' : 'networkB';
  }

  probe(spec: Omit<ProbeSpec, 'network'> & { network?: NetworkName }): Promise<FetchedView> {
    const network = spec.network ?? this.auxNetwork;
    const view = runProbe(this.#opts.networks[network], this.#limiters[network], { ...spec, network }, this.#ctx);
    const onRecord = this.#opts.onRecord;
    if (!onRecord) return view;
    return view.then((v) => {
      onRecord(v.record);
      return v;
    });
  }

  /**
   * The DNS discovery lookups through networkA, under their own bound and this scan's budget and
   * deadline; the engine starts them with round one and awaits them after round two.
   */
  dnsLookups(): { done: Promise<{ dns: DnsEvidence; records: EvidenceRecord[] }>; cutOff: () => void } | undefined {
    const doh = this.#opts.doh;
    if (!doh) return undefined;
    // cutOff() ends the lookups still under way (the engine's grace after round two, DNS_GRACE_MS).
    const stop = new AbortController();
    const signal = AbortSignal.any([this.#ctx.signal, stop.signal]);
    return { done: lookUpDnsRecords(this.#domain, this.#opts.networks.networkA, doh, { ...this.#ctx, signal }), cutOff: () => stop.abort() };
  }

  url(path: string): string {
    return new URL(path, homeUrl(this.#domain)).href;
  }

  async round1(): Promise<Round1> {
    const version = this.#opts.rosterVersion;
    const cells = gridCells(version);
    const browser = { userAgent: browserUserAgent(version), arrival: controlHeaders(version) };
    const robotsAgents = probeableAgents(version);
    const askers = productArrivals(version).filter((p) => p.asks === 'accept');
    // Progress: every phase of round one starts now, announced in SCAN_PHASES order.
    const sink = this.#opts.progress;
    const robotsPhase = new PhaseCounter(sink, 'robots', robotsAgents.length + 2);
    const gridPhase = { networkA: new PhaseCounter(sink, 'grid-networkA', cells.length), networkB: new PhaseCounter(sink, 'grid-networkB', cells.length) };
    // The Web Bot Auth pair per network joins the files once its signature is known.
    const filesPhase = new PhaseCounter(sink, 'files', AUX_PATHS.length + 1 + askers.length, false);
    // Issue order = queue order: the grid first (it decides the headline), then the site files.
    const grid = NETWORKS.map((network) => cells.map((c) => gridPhase[network].track(this.probe({ key: c.key, network, url: homeUrl(this.#domain), userAgent: c.userAgent, arrival: c.headers, isHome: true, keepBody: c.key === CONTROL_KEY || keepRefusal }))));
    // Files are asked for with the browser's whole navigation request, Accept set per file;
    // robots.txt as each agent arrives exactly as that agent does.
    const robots = robotsPhase.track(this.#robots({ key: 'robots:browser', ...browser, accept: ROBOTS_ACCEPT }));
    const firstAgent = robotsAgents.find((a) => a.token === ROBOTS_AGENT);
    const robotsAgentView = firstAgent ? robotsPhase.track(this.#robotsAs(firstAgent)) : undefined;
    const markdown = filesPhase.track(this.probe({ key: 'content:markdown', url: homeUrl(this.#domain), ...browser, accept: 'text/markdown, text/html;q=0.5', isHome: true }));
    const products = askers.map((p) => filesPhase.track(this.probe({ key: `markdown:${p.id}`, url: homeUrl(this.#domain), userAgent: uaOf(p.request.headers), arrival: p.request.headers, isHome: true })));
    // The well-known files go to the second network once both browser controls have passed
    // (filesNetworkFor): the robots network carries robots.txt as every agent, the second has room.
    const filesNetwork = this.#filesNetwork(grid[0]![0]!, grid[1]![0]!);
    const files = AUX_PATHS.map((path) => filesPhase.track(filesNetwork.then((network) => this.probe({ key: `file:${path}`, network, url: this.url(path), ...browser, accept: '*/*', isHome: false }))));
    // robots.txt as every other agent, and as the browser from the second network.
    const agentRobots = robotsAgents.map((a) => (a === firstAgent ? robotsAgentView! : robotsPhase.track(this.#robotsAs(a))));
    const second = this.secondNetwork;
    const robotsSecond = robotsPhase.track(this.#robots({ key: 'robots:browser', network: second, ...browser, accept: ROBOTS_ACCEPT }));
    const wba = this.#opts.webBotAuth;
    const home = homeUrl(this.#domain);
    // Signed as each request is sent (probe.ts `sign`): one signature and nonce per network and hop.
    const signing = wba ? await wba.ready().then(() => true, () => false) : false;
    const wbaProbes = wba && signing ? NETWORKS.map((network) => [
      filesPhase.track(this.probe({ key: 'wba:unsigned', network, url: home, userAgent: wba.userAgent, isHome: true, keepBody: false })),
      filesPhase.track(this.probe({ key: 'wba:signed', network, url: home, userAgent: wba.userAgent, isHome: true, sign: (url) => wba.sign(url), keepBody: false })),
    ]) : null;
    filesPhase.add(wbaProbes ? wbaProbes.length * 2 : 0);

    const gridViews = await Promise.all(grid.map((g) => Promise.all(g)));
    const productViews = await Promise.all(products);
    const [robotsFetch, markdownView, ...fileViews] = await Promise.all([robots, markdown, ...files]);
    const agentRobotViews = await Promise.all(agentRobots);
    const robotsSecondView = await robotsSecond;
    this.#shareBodies([robotsFetch!, robotsSecondView, ...agentRobotViews]);
    const robotsAgentFetch = firstAgent ? agentRobotViews[robotsAgents.indexOf(firstAgent)]! : robotsFetch!;
    const out: Round1 = {
      auxNetwork: this.auxNetwork,
      filesNetwork: await filesNetwork,
      controls: {} as Record<NetworkName, FetchedView>,
      cells: {},
      robotsFetch: robotsFetch!, robotsAgentFetch, markdown: markdownView!,
      robots: {
        network: this.auxNetwork, secondNetwork: second, browser: robotsFetch!, browserSecond: robotsSecondView,
        agents: Object.fromEntries(robotsAgents.map((a, i) => [a.token, agentRobotViews[i]!])),
      },
      products: Object.fromEntries(askers.map((p, i) => [p.id, productViews[i]!])),
      files: {},
      wba: null,
      all: [],
    };
    NETWORKS.forEach((network, ni) => {
      cells.forEach((c, ci) => {
        const v = gridViews[ni]![ci]!;
        if (c.key === CONTROL_KEY) out.controls[network] = v;
        else (out.cells[c.token!] ??= {} as Record<NetworkName, FetchedView>)[network] = v;
      });
    });
    AUX_PATHS.forEach((p, i) => (out.files[p] = fileViews[i]!));
    const wbaViews = wbaProbes ? await Promise.all(wbaProbes.map((pair) => Promise.all(pair))) : null;
    if (wbaViews) out.wba = { networkA: { unsigned: wbaViews[0]![0]!, signed: wbaViews[0]![1]! }, networkB: { unsigned: wbaViews[1]![0]!, signed: wbaViews[1]![1]! } };
    const otherRobots = agentRobotViews.filter((v) => v !== robotsAgentFetch);
    out.all = [...gridViews.flat(), robotsFetch!, robotsAgentFetch, markdownView!, ...productViews, ...fileViews, ...(wbaViews ? wbaViews.flat() : []), ...otherRobots, robotsSecondView];
    return out;
  }

  /**
   * Where the well-known files are read: the second network when both networks are configured and
   * both browser controls passed (the control is first in each network's queue, so this is known
   * after one round trip), else the robots network as before. Either network then lets a browser
   * through, and a file is asked for with the browser's headers, so it is the same request to an
   * equally usable network; moving these 16 requests is what keeps robots.txt as every agent
   * (26 more requests on the robots network) from lengthening the scan (bench/results.md).
   */
  #filesNetwork(controlA: Promise<FetchedView>, controlB: Promise<FetchedView>): Promise<NetworkName> {
    const second = this.secondNetwork;
    if (!this.#opts.networks.networkA.configured || !this.#opts.networks.networkB.configured) return Promise.resolve(this.auxNetwork);
    return Promise.all([controlA, controlB]).then(([a, b]) => (a.outcome === 'pass' && b.outcome === 'pass' ? second : this.auxNetwork));
  }

  /** The network that is not the robots (auxiliary) network. */
  get secondNetwork(): NetworkName {
    return this.auxNetwork === 'networkA' ? 'networkB' : 'networkA';
  }

  /** robots.txt, capped, its body kept once per distinct content. */
  #robots(spec: Omit<ProbeSpec, 'network' | 'url' | 'isHome'> & { network?: NetworkName }): Promise<FetchedView> {
    const kept = this.#robotsBodies;
    return this.probe({
      ...spec, url: this.url('/robots.txt'), isHome: false, maxBodyBytes: ROBOTS_CAP,
      keepBody: (sha) => (kept.has(sha) ? false : (kept.set(sha, ''), true)),
    });
  }

  /** robots.txt exactly as `agent` asks for it (its whole roster request). */
  #robotsAs(agent: RosterAgent, network?: NetworkName): Promise<FetchedView> {
    return this.#robots({ key: `robots:${agent.token}`, userAgent: agent.ua!, arrival: agentHeaders(agent), ...(network ? { network } : {}) });
  }

  /** Gives every robots.txt answer whose body was not kept the one decoded copy of it. */
  #shareBodies(views: readonly FetchedView[]): void {
    for (const v of views) if (v.body !== '') this.#robotsBodies.set(v.record.bodySha256, v.body);
    for (const v of views) if (v.body === '' && v.record.bodyBytes > 0) v.body = this.#robotsBodies.get(v.record.bodySha256) ?? '';
  }

  /**
   * Round two: `plan` maps keys to absolute URLs; each is fetched once, in key order, as the
   * browser asking for a file, except a product's follow-up (`markdown:<id>`: Codex CLI following
   * the page's Markdown alternate), which arrives as that product does.
   */
  async round2(plan: ReadonlyArray<readonly [key: string, url: string]>, robotsAgain: readonly string[] = []): Promise<Round2> {
    const version = this.#opts.rosterVersion;
    // robots.txt again from the second network as each agent whose copy differed: that network's own
    // queue, so it runs beside the follow-ups. Not asked when the second network has no route.
    const asked = this.#opts.networks[this.secondNetwork].configured ? robotsAgain : [];
    const agents = asked.map((t) => getRoster(version).find((a) => a.token === t)).filter((a): a is RosterAgent => !!a?.ua);
    const phase = new PhaseCounter(this.#opts.progress, 'followups', plan.length + agents.length);
    const again = agents.map((a) => phase.track(this.#robotsAs(a, this.secondNetwork)));
    const browser = { userAgent: browserUserAgent(version), arrival: controlHeaders(version), accept: '*/*' };
    const as = (key: string) => {
      const product = key.startsWith('markdown:') ? productArrivals(version).find((p) => `markdown:${p.id}` === key) : undefined;
      if (product) return { userAgent: uaOf(product.request.headers), arrival: product.request.headers };
      // A server card is asked for by its media type, as the server-card extension tells clients to.
      return key.startsWith(MCP_CARD_KEY) ? { ...browser, accept: `${CARD_TYPE}, application/json;q=0.9` } : browser;
    };
    const views = await Promise.all(plan.map(([key, url]) => phase.track(this.probe({ key, url, ...as(key), isHome: false }))));
    const out: Record<string, FetchedView> = {};
    plan.forEach(([key], i) => (out[key] = views[i]!));
    const againViews = await Promise.all(again);
    this.#shareBodies(againViews);
    return { followups: out, robots: Object.fromEntries(agents.map((a, i) => [a.token, againViews[i]!])) };
  }
}

/**
 * An agent's answer is kept only when it refused or could not be read, and only up to 64 KiB: the
 * refusal's body is what access.refusal-readable and the x402 v1 offer read (parties.ts,
 * prices.ts). Passes still let theirs go, identical refusals share one string (bodyBySha), and a
 * site cannot make a scan hold 56 answers of 256 KiB each.
 */
export const REFUSAL_BODY_MAX = 64 * 1024;
const keepRefusal = (_sha: string, outcome: string, bytes: number): boolean => outcome !== 'pass' && bytes <= REFUSAL_BODY_MAX;

const ROBOTS_ACCEPT = 'text/plain,*/*;q=0.8';
const ROBOTS_CAP = ROBOTS_MAX_BYTES + 64 * 1024;

function uaOf(list: HeaderList): string {
  return headerValue(list, 'user-agent') ?? '';
}
