// A full-size report for the page tests: every agent of roster-v1.0 (33), every check of the
// rubric-v1.1 registry (an archived report of that rubric), and evidence with request headers and curl for every probe, with a mix of
// outcomes that exercises every word and icon. Built from the engine's own registry and score
// formula, so its score agrees with its checks. Deterministic: no clock, no randomness.
import { CHECKS } from '../../src/scanner/checks/index.ts';
import { V12_ADDED } from '../../src/scanner/checks/v1.2.ts';
import { CURRENT_RUBRIC, PREVIOUS_RUBRIC, rubricChanges } from '../../src/scanner/rubrics.ts';
import { everyCatalogCheck } from '../../src/scanner/catalog.ts';
import { curlCommand } from '../../src/scanner/replay.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import { fixesFromTable } from '../../src/scanner/platforms.ts';
import { computeScore } from '../../src/scanner/scoring.ts';
import type { CheckResult, EdgeOutcome, EngineReport, EvidenceRecord, MatrixEntry, NetworkName } from '../../src/scanner/types.ts';
import { PREVIOUS_RUBRIC_VERSION, reportVersions } from '../../src/scanner/versions.ts';
import { catalogLookup } from '../../src/scans/adapters.ts';
import type { CliVantage } from '../../src/scans/types.ts';

/**
 * The report is one archived under rubric-v1.1, before rubric-v1.2 was released: scored with
 * rubric-v1.1 and carrying the preview of that time, which became rubric-v1.2 as it was.
 */
const ARCHIVED_PREVIEW = 'rubric-v1.2-preview';

export const fullCatalog = catalogLookup({ checks: everyCatalogCheck() });

/** A plausible generation per preview check, as the checks name them. */
const GENERATIONS: Record<string, string> = {
  'access.payment-offers': 'x402 v2', 'policy.preferences-agree': 'Content Signals (Cloudflare)', 'discovery.llms-txt-v2': 'llms.txt v1 (/llms.txt only)',
  'discovery.ard': 'ARD v0.91 (ard.json)', 'discovery.a2a-card-v1': 'A2A v0.3 (legacy)', 'discovery.mcp-card-shape': 'SEP-1649 (superseded)', 'trust.web-bot-auth': 'webbotauth-httpsig-protocol-01 (dictionary Signature-Agent)',
};

const STATUS: Record<EdgeOutcome, number> = { pass: 200, challenge: 403, block: 403, 'rate-limited': 429, auth: 401, 'origin-error': 502, 'transport-error': 0, unprobed: 0 };

/** Outcomes per agent index: mostly served, with every denial kind somewhere. */
function outcomes(i: number): { a: EdgeOutcome; b: EdgeOutcome; robots: MatrixEntry['robotsSays'] } {
  switch (i % 11) {
    case 1: return { a: 'block', b: 'block', robots: 'allowed' };
    case 3: return { a: 'challenge', b: 'pass', robots: 'allowed' };
    case 5: return { a: 'pass', b: 'pass', robots: 'blocked' };
    case 7: return { a: 'rate-limited', b: 'rate-limited', robots: 'partial' };
    case 9: return { a: 'auth', b: 'transport-error', robots: 'allowed' };
    default: return { a: 'pass', b: 'pass', robots: 'allowed' };
  }
}

function verdictOf(a: EdgeOutcome, b: EdgeOutcome, robots: string): MatrixEntry['verdict'] {
  if (a === 'pass' && b === 'pass') return robots === 'blocked' ? 'blocked-consistent' : 'pass';
  if (a === b) return 'denied';
  return a === 'pass' || b === 'pass' ? 'inconclusive' : 'denied';
}

function evidence(domain: string, network: NetworkName, key: string, ua: string, outcome: EdgeOutcome): EvidenceRecord {
  const url = `https://${domain}/`;
  const requestHeaders = { Host: domain, 'User-Agent': ua, Accept: 'text/html,application/xhtml+xml', 'Accept-Language': 'en' };
  const status = STATUS[outcome];
  return {
    id: `${network === 'networkA' ? 'a' : 'b'}-${key.replace(/[^a-z0-9]/gi, '').toLowerCase()}`,
    network, key, url, userAgent: ua, accept: requestHeaders.Accept, method: 'GET', requestHeaders, curl: curlCommand('GET', url, requestHeaders),
    status, errorCode: status === 0 ? 'ECONNRESET' : null, errorMessage: status === 0 ? 'socket hang up' : null,
    headers: status === 0 ? {} : { 'content-type': 'text/html; charset=utf-8', server: 'cloudflare', 'cf-ray': '8f00000000000000-AMS', 'cache-control': 'private, max-age=0, no-store, no-cache, must-revalidate' },
    setCookieNames: outcome === 'challenge' ? ['__cf_bm'] : [], bodySha256: 'c0ffee'.repeat(10) + 'beef', bodyBytes: outcome === 'pass' ? 48213 : 5120, bodyTruncated: false,
    title: outcome === 'pass' ? 'Welcome to the shop' : outcome === 'challenge' ? 'Just a moment...' : 'Attention Required! | Cloudflare', textChars: outcome === 'pass' ? 9120 : 0,
    timingMs: 180 + key.length, redirects: [], finalUrl: url, outcome, vendors: outcome === 'pass' ? [] : ['Cloudflare'], markers: outcome === 'challenge' ? ['cf-chl'] : [],
  };
}

export function fullReport(domain = 'full-site.example'): { report: EngineReport; evidence: EvidenceRecord[]; cliVantage: CliVantage } {
  const roster = getRoster();
  const ev: EvidenceRecord[] = [];
  for (const net of ['networkA', 'networkB'] as const) ev.push(evidence(domain, net, 'control:browser', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0', 'pass'));
  const matrix: MatrixEntry[] = roster.map((agent, i) => {
    const o = outcomes(i);
    if (agent.tokenOnly || !agent.ua) {
      return { ua: agent.token, intent: agent.intent, robotsSays: o.robots, edgeDoes: null, httpStatus: null, verdict: 'not-probeable', measurement: 'inferred', attributedVendors: [], notes: [`${agent.token} has no crawler of its own; robots.txt is the whole answer.`] };
    }
    ev.push(evidence(domain, 'networkA', `grid:${agent.token}`, agent.ua, o.a), evidence(domain, 'networkB', `grid:${agent.token}`, agent.ua, o.b));
    const verdict = verdictOf(o.a, o.b, o.robots);
    const notes = verdict === 'pass' ? [] : [`Consistent with a rule on the ${agent.token} user-agent at the edge (Cloudflare): the browser control from the same network was served.`];
    return { ua: agent.token, intent: agent.intent, robotsSays: o.robots, edgeDoes: { networkA: o.a, networkB: o.b }, httpStatus: { networkA: STATUS[o.a], networkB: STATUS[o.b] }, verdict, measurement: 'measured', attributedVendors: verdict === 'pass' ? [] : ['Cloudflare'], notes };
  });
  const statuses: CheckResult['status'][] = ['pass', 'fail', 'pass', 'pass', 'inconclusive', 'pass', 'fail', 'pass', 'skipped', 'pass', 'pass', 'fail'];
  const scored = CHECKS.map((c, i) => {
    const status = statuses[i % statuses.length]!;
    const partial = i === 2; // one pass with partial credit
    const result: CheckResult = { id: c.id, category: c.category, weight: c.weight, status, detail: status === 'fail' ? `${c.name}: not found on ${domain}.` : undefined };
    if (partial) result.credit = 0.5;
    return { result, thousandths: status === 'pass' ? (partial ? 500 : 1000) : 0 };
  });
  const report: EngineReport = {
    schemaVersion: 1, domain, scannedAt: '2026-11-20T09:30:00.000Z', headline: 'partially-blocked',
    reasons: [
      'Requests identifying as ChatGPT-User, Claude-SearchBot and 4 more agents were turned away on both networks, while the browser control from the same networks was served.',
      'robots.txt disallows 3 agents, and the edge honours it.',
    ],
    confidence: 'high', confidenceNote: 'Both networks answered, both browser controls passed, and robots.txt was read.', vantagesConfirmed: true,
    score: computeScore(scored, PREVIOUS_RUBRIC_VERSION), profile: 'general', checks: scored.map((s) => s.result), matrix,
    evidenceRefs: ev.map((e) => e.id),
    probeMethod: 'Each agent request was sent from two datacenter networks with the agent\u2019s published user-agent string, beside a browser control from the same network.',
    versions: reportVersions(PREVIOUS_RUBRIC_VERSION),
  };
  // The preview: the same current checks, then the added ones with every status a preview check takes.
  const previewStatuses: CheckResult['status'][] = ['pass', 'fail', 'inconclusive', 'pass', 'fail', 'inconclusive', 'pass'];
  const added = V12_ADDED.map((c, i) => {
    const status = previewStatuses[i % previewStatuses.length]!;
    const result: CheckResult = { id: c.id, category: c.category, weight: c.weight, status, detail: `${c.name}: ${status} on ${domain}.` };
    if (status !== 'inconclusive') result.generation = GENERATIONS[c.id] ?? 'ARD v0.91 (ard.json)';
    return { result, thousandths: status === 'pass' ? 1000 : 0 };
  });
  // The preview measures discovery.llms-txt-links anew (up to 10 links): here it names three dead ones.
  const llmsLinks: CheckResult = { id: 'discovery.llms-txt-links', category: 'discovery', weight: 2, status: 'fail', credit: 0.499, detail: '5 of 8 links resolve (62 %); 3 dead: /docs/broken (HTTP 503), /docs/old (HTTP 404), /docs/removed (HTTP 410)' };
  const previewScored = [...scored.map((s) => (s.result.id === llmsLinks.id ? { result: llmsLinks, thousandths: 499 } : s)), ...added];
  report.preview = {
    rubricVersion: ARCHIVED_PREVIEW, score: computeScore(previewScored, ARCHIVED_PREVIEW), checks: previewScored.map((s) => s.result),
    changes: rubricChanges(PREVIOUS_RUBRIC, CURRENT_RUBRIC),
  };
  // Cloudflare served it: the platform fixes come from the scanner's own table, naming the agents it turned away.
  report.platforms = [{ id: 'cloudflare', name: 'Cloudflare', role: 'edge', evidence: 'header cf-ray: 8f1e2d3c4b5a6978-AMS on the home page' }];
  const INTENTS: Record<string, string> = { 'access.user-agents': 'user-fetch', 'access.search-agents': 'search', 'access.training-consistency': 'training' };
  report.platformFixes = fixesFromTable(report.checks, report.platforms, (id) => matrix.filter((m) => m.intent === INTENTS[id] && m.verdict === 'denied').map((m) => m.ua));
  report.robotsPatch = {
    reason: 'The edge turns away ChatGPT-User and Claude-SearchBot, which robots.txt allows.',
    unifiedDiff: '--- robots.txt\tas served\n+++ robots.txt\tproposed\n@@ -1,5 +1,9 @@\n User-agent: GPTBot\n Disallow: /\n \n User-agent: *\n Allow: /\n+\n+User-agent: ChatGPT-User\n+User-agent: Claude-SearchBot\n+Disallow: /\n',
    agents: [{ ua: 'ChatGPT-User', edge: 'denies', before: 'allowed', after: 'blocked' }, { ua: 'Claude-SearchBot', edge: 'denies', before: 'allowed', after: 'blocked' }],
    edgeAlternative: { platform: 'cloudflare', docUrl: 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/', text: 'Or keep robots.txt and change Cloudflare instead: In AI Crawl Control → Crawlers set ChatGPT-User and Claude-SearchBot to Allow.' },
  };
  const cliVantage: CliVantage = {
    selfReported: true, observedAt: '2026-11-20T09:31:00.000Z',
    observations: [{ key: 'control:browser', status: 200, bodyBytes: 48000, timingMs: 90 }, ...matrix.filter((m) => m.edgeDoes).map((m, i) => ({ key: `grid:${m.ua}`, status: i % 6 === 1 ? 403 : 200, bodyBytes: 1000, timingMs: 80 }))],
  };
  return { report, evidence: ev, cliVantage };
}
