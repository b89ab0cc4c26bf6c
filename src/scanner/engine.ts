/**
 * The site scanner: gather evidence (two rounds of parallel probes), then
 * judge it with pure functions (matrix, headline, profile, rubric).
 */
import type { Egress } from '../net/egress.ts';
import { normalizeDomain } from '../net/domain.ts';
import type { ScanEvidence } from './evidence.ts';
import { planFollowups } from './followups.ts';
import { markdownNotes } from './markdown.ts';
import { Gatherer } from './gather.ts';
import { decideHeadline } from './headline.ts';
import { buildMatrix, usableNetworks } from './matrix.ts';
import { addContent } from './content.ts';
import { applySoftBlocks } from './soft-block.ts';
import { pageOf, parseLinkHeader } from './page.ts';
import { followedLinksSentence, requestKindsSentence } from './requests.ts';
import type { WebBotAuthSigner } from '../signing/web-bot-auth.ts';
import { detectProfile } from './profile.ts';
import { readRobots, type RobotsFile } from './robots.ts';
import { addSecondNetwork, collectRobotsCopies, copyPath, robotsFileFor, type RobotsCopies } from './robots-copies.ts';
import { robotsCopyNotes, robotsTxtReasons, robotsTxtReport } from './robots-report.ts';
import { getRoster } from './roster.ts';
import { runPreview, runRubric } from './rubric.ts';
import { scoringRubric } from './rubrics.ts';
import { attributePlatforms, platformFixes } from './platforms.ts';
import { judgeIntent } from './intent.ts';
import type { ScanIntent } from './intent-request.ts';
import { proposeRobotsPatch } from './robots-patch.ts';
import { attachParties, platformRefusalFixes, refusalReasons, withPlatformRefusals } from './parties.ts';
import { attachOffers } from './prices.ts';
import { NETWORKS, type EngineReport, type EvidenceRecord, type FetchedView, type NetworkName, type Profile } from './types.ts';
import { createLimiter, type Limiter } from './probe.ts';
import { PhaseCounter, type ProgressSink } from './progress.ts';
import { DNS_GRACE_MS, type DohSettings } from './dns-lookups.ts';
import { verifyCardSignatures } from './a2a-signatures.ts';
import { ROSTER_VERSION, SCHEMA_VERSION, reportVersions } from './versions.ts';

/** A file the scan read, kept beside the evidence so that two scans can be compared line by line. */
export interface ScannedFile { path: string; state: 'present' | 'absent' | 'unknown'; body?: string }
export interface ScanOutcome { report: EngineReport; evidence: EvidenceRecord[]; files: ScannedFile[] }
export interface ScanOptions {
  profile?: Profile;
  /** What the owner wants each role to get: judged into `report.intent`, never into the score or headline. */
  intent?: ScanIntent;
  /** The rubric that scores the report (a SCORING_RUBRICS version); the current one when absent. */
  rubric?: string;
  signal?: AbortSignal;
  /** Told each phase's start and finished requests (robots, each network's grid, files, follow-ups, scoring). */
  onProgress?: ProgressSink;
}
export interface Scanner { scan(domain: string, opts?: ScanOptions): Promise<ScanOutcome> }

export interface ScannerOptions {
  networks: { networkA: Egress; networkB: Egress };
  /** Whole-scan deadline (SCAN_DEADLINE_MS); unfinished probes become transport-error / unprobed. */
  deadlineMs: number;
  /** Per-request timeout (PROBE_TIMEOUT_MS). */
  probeTimeoutMs: number;
  now?: () => Date;
  /** Parallel requests per network and site. */
  concurrency?: number;
  /** Hard cap on requests per scan. */
  maxRequests?: number;
  /** When set, one unsigned and one Web Bot Auth-signed home-page request per network, as agent-readiness itself. */
  webBotAuth?: WebBotAuthSigner;
  /** SCAN_DOH_URL and our User-Agent: the DNS discovery lookups (dns-lookups.ts); unset, none are made. */
  doh?: DohSettings;
}

/**
 * Parallel requests per network and site. Eight keeps a scan polite (a
 * browser opens six connections per host) while the grid of one network
 * still completes in four rounds.
 */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_REQUESTS_PER_SCAN = 200;

export function probeMethodText(concurrency: number): string {
  return 'Measured from two cloud datacenter networks (networkA, networkB). Each agent request is sent as that agent sends it (its published user-agent string, Accept and other headers, '
    + 'listed with their sources in /methodology.md), but from our networks, not from the vendor\'s verified IP ranges or signatures; a current Chrome\'s navigation request from the same network is the control. '
    + 'One GET of the home page per agent and network, robots.txt as each agent and as the browser (each agent\'s robots.txt verdict comes from the copy it was served), plus a fixed list of well-known files; '
    + `every request, these robots.txt reads included, counts towards at most ${MAX_REQUESTS_PER_SCAN} requests per scan and ${concurrency} at a time per network and site. `
    + 'The result describes how the site\'s edge treats agent-identifying requests from cloud servers; it never claims how the edge treats a vendor\'s verified crawler. '
    + requestKindsSentence();
}

/** What the scans of one site share while any of them runs. */
interface Site {
  /** The politeness bound, per network. */
  limiters: Record<NetworkName, Limiter>;
  /** Scans of the site under way. */
  scans: number;
  /** Every host the site's scans reached (released when the last ends), and the URLs already read for them. */
  hosts: Set<string>;
  urls: Set<string>;
}

export function createScanner(opts: ScannerOptions): Scanner {
  const now = opts.now ?? (() => new Date());
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  // The politeness bound is per site, not per scan: overlapping scans of one domain
  // (fresh re-scans, different profiles) share one limiter per network.
  // The hosts its scans asked (redirect targets and sitemap hosts too) are released when the
  // last scan of the site ends, so a finished scan leaves no connections idling (egress.release).
  // They are noted as each answer arrives, so a scan that throws releases them too.
  const sites = new Map<string, Site>();
  const acquire = (domain: string) => {
    let site = sites.get(domain);
    if (!site) {
      site = { limiters: { networkA: createLimiter(concurrency), networkB: createLimiter(concurrency) }, scans: 0, hosts: new Set([domain]), urls: new Set() };
      sites.set(domain, site);
    }
    site.scans++;
    return site;
  };
  const release = (domain: string) => {
    const site = sites.get(domain);
    if (!site || --site.scans > 0) return;
    sites.delete(domain);
    for (const network of NETWORKS) opts.networks[network].release(site.hosts);
  };
  return {
    async scan(input, scanOpts = {}) {
      const normalized = normalizeDomain(input);
      if (!normalized.ok) throw new Error(normalized.message);
      const domain = normalized.domain;
      // Checked before any request is sent: an unknown rubric is the caller's mistake, not the site's.
      if (!scoringRubric(scanOpts.rubric)) throw new Error(`${scanOpts.rubric} is not a rubric a scan can be scored with`);
      const site = acquire(domain);
      try {
        return await scanSite(domain, site, scanOpts);
      } finally {
        release(domain);
      }
    },
  };

  async function scanSite(domain: string, site: Site, scanOpts: ScanOptions): Promise<ScanOutcome> {
    const scannedAt = now();
    const deadline = AbortSignal.timeout(opts.deadlineMs);
    const signal = scanOpts.signal ? AbortSignal.any([deadline, scanOpts.signal]) : deadline;
    const gatherer = new Gatherer(domain, {
      networks: opts.networks, probeTimeoutMs: opts.probeTimeoutMs, concurrency, signal,
      budget: { remaining: opts.maxRequests ?? MAX_REQUESTS_PER_SCAN }, rosterVersion: ROSTER_VERSION, limiters: site.limiters,
      onRecord: (record) => addHosts(site, record),
      ...(opts.webBotAuth ? { webBotAuth: opts.webBotAuth } : {}),
      ...(opts.doh ? { doh: opts.doh } : {}),
      ...(scanOpts.onProgress ? { progress: scanOpts.onProgress } : {}),
    });

    // Beside the probes: started once round one's first requests are out, awaited only once round two is done.
    const round1 = gatherer.round1();
    const dnsPending = gatherer.dnsLookups();
    dnsPending?.done.catch(() => undefined);
    const r1 = await round1;
    const roster = getRoster(ROSTER_VERSION);
    const robots = readRobots(r1.robotsFetch.ok
      ? { ok: true, status: r1.robotsFetch.status, contentType: r1.robotsFetch.contentType, body: r1.robotsFetch.body, edgeOutcome: r1.robotsFetch.outcome }
      : { ok: false });
    // Every answer carries its visible-text length (record.textChars, measured on arrival, one
    // parse per distinct body): the very number the verdicts compare.
    // robots.txt as each agent got it: its verdict follows its own copy (robots-copies.ts).
    const robotsTxt = collectRobotsCopies(r1.robots, robots, roster);
    // A 200 page that refuses an agent while the browser got the real page is a denial (soft-block.ts).
    const softBlocks = applySoftBlocks(r1.controls, r1.cells);
    const rows = buildMatrix({ roster, robots, robotsFor: (a) => robotsFileFor(robotsTxt, robots, a.token), controls: r1.controls, cells: r1.cells, textLength: (v) => v.record.textChars });
    // The page each agent got, against the browser's (content.ts).
    addContent(rows, r1.controls, r1.cells, softBlocks);
    const usable = usableNetworks(r1.controls);
    const home = pickHome(r1.controls, usable);
    const page = home ? pageOf(home) : null;
    const ev: ScanEvidence = {
      domain, scannedAt, roster, robots, robotsFetch: r1.robotsFetch, robotsAgentFetch: r1.robotsAgentFetch, robotsTxt,
      controls: r1.controls, usable, cells: r1.cells, rows, home, page,
      homeLinks: home && page ? [...parseLinkHeader(home.headers['link']), ...page.links] : [],
      files: r1.files, markdown: r1.markdown, products: r1.products, wba: r1.wba, followups: {},
    };
    const r2 = await gatherer.round2(planFollowups(ev), robotsTxt.confirm);
    ev.followups = r2.followups;
    addSecondNetwork(robotsTxt, r2.robots);
    // Signed A2A cards: verified once their key sets are in (round two), before anything is judged.
    const cardSignatures = await verifyCardSignatures(ev);
    if (cardSignatures) ev.a2aSignatures = cardSignatures;
    // Lookups still under way get DNS_GRACE_MS more, then are cut off as failed: DNS never holds a scan up for long.
    const grace = dnsPending ? setTimeout(dnsPending.cutOff, DNS_GRACE_MS) : undefined;
    const dns = dnsPending ? await dnsPending.done.finally(() => clearTimeout(grace)) : undefined;
    if (dns) ev.dns = dns.dns;
    for (const r of rows) r.entry.notes.push(...robotsCopyNotes(robotsTxt, r.agent));
    // Markdown the way each agent asks for it, on each agent's row (the preview rubric scores it).
    for (const [token, notes] of markdownNotes(ev)) rows.find((r) => r.agent.token === token)?.entry.notes.push(...notes);

    const scoring = new PhaseCounter(scanOpts.onProgress, 'scoring', 1);
    // Who refused each agent and what each 402 asks: on the rows, beside the verdicts they never change.
    attachParties(ev);
    attachOffers(rows, ev.cells);
    const verdict = decideHeadline(ev);
    const profile = detectProfile(ev, scanOpts.profile);
    const rubric = scoringRubric(scanOpts.rubric)!;
    const { checks, score } = runRubric(ev, profile.profile, rubric);
    const views: FetchedView[] = [...r1.all, ...Object.values(ev.followups), ...Object.values(r2.robots)];
    const evidence = dedupe([...views.map((v) => v.record), ...(dns?.records ?? [])]);
    const report: EngineReport = {
      schemaVersion: SCHEMA_VERSION,
      domain,
      scannedAt: scannedAt.toISOString(),
      headline: verdict.headline,
      reasons: [...verdict.reasons, ...refusalReasons(rows, verdict, Boolean(opts.webBotAuth)), ...robotsTxtReasons(robotsTxt, roster), profile.reason],
      confidence: verdict.confidence,
      confidenceNote: verdict.confidenceNote,
      vantagesConfirmed: verdict.vantagesConfirmed,
      score,
      profile: profile.profile,
      checks,
      matrix: rows.map((r) => r.entry),
      evidenceRefs: evidence.map((e) => e.id),
      probeMethod: probeMethodText(concurrency) + followedLinksSentence(Object.keys(ev.followups)),
      versions: reportVersions(rubric.version),
    };
    const preview = runPreview(ev, profile.profile);
    if (preview) report.preview = preview;
    // Who served the page, their concrete fixes and a robots.txt that agrees with the edge: advice only, never scored.
    const platforms = attributePlatforms(ev);
    report.platforms = platforms;
    report.platformFixes = withPlatformRefusals(platformFixes(ev, checks, platforms), platformRefusalFixes(rows));
    const patch = proposeRobotsPatch(ev, verdict.headline, platforms);
    if (patch) report.robotsPatch = patch;
    report.robotsTxt = robotsTxtReport(robotsTxt, roster);
    if (scanOpts.intent) report.intent = judgeIntent(ev, scanOpts.intent, platforms);
    scoring.tick();
    return { report, evidence, files: [robotsFileOf(robots), ...copyFilesOf(robotsTxt)] };
  }
}

/**
 * robots.txt as the verdicts read it: the text parsed (capped at 500 KiB, cut at a line end),
 * absent for a 4xx, unknown when it could not be read (a denial, a 5xx, an HTML page).
 */
function robotsFileOf(robots: RobotsFile): ScannedFile {
  if (robots.state === 'parsed') return { path: '/robots.txt', state: 'present', body: robots.text };
  return { path: '/robots.txt', state: robots.state === 'none' ? 'absent' : 'unknown' };
}

/**
 * Every other readable copy of robots.txt an agent was served, kept by its SHA-256 under
 * `/robots.txt#<first 32 hex digits>` so that a comparison of two scans can show how one agent's
 * copy changed (src/changes/robots-diff.ts). The browser's copy stays `/robots.txt`.
 */
function copyFilesOf(copies: RobotsCopies): ScannedFile[] {
  return copies.copies
    .filter((c) => c.state === 'present' && c !== copies.control)
    .map((c) => ({ path: copyPath(c.sha256), state: 'present' as const, body: c.file.text }));
}

/** The browser control's page from the first usable network (networkA first). */
function pickHome(controls: Record<NetworkName, FetchedView>, usable: readonly NetworkName[]): FetchedView | null {
  const n = usable[0];
  return n ? controls[n] : null;
}

/**
 * Every host a record's request reached: the one asked, each redirect's, the last. Most answers
 * of a scan share their URLs (the grid asks the home page 56 times), so each URL is parsed once.
 */
function addHosts(site: Site, record: EvidenceRecord): void {
  const add = (url: string) => {
    if (site.urls.has(url)) return;
    site.urls.add(url);
    try {
      site.hosts.add(new URL(url).hostname);
    } catch {
      // recorded as sent; the egress never connected anywhere for it
    }
  };
  add(record.url);
  for (const url of record.redirects) add(url);
  add(record.finalUrl);
}

function dedupe(records: EvidenceRecord[]): EvidenceRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}
