/**
 * `scan localhost:<port>`: the whole rubric in-process against the
 * developer's own server, from this machine only. Nothing is uploaded and no
 * hosted service is contacted.
 *
 * The engine scans a domain over https (that is what public sites are), so it
 * is handed a stand-in name under `.invalid` (which can never resolve), and a
 * thin egress maps that origin onto the local one. The real egress behind it
 * reaches exactly the named loopback host and port (allowLoopbackTarget) and
 * nothing else: a redirect or link to anywhere else comes back unreachable.
 */
import { randomUUID } from 'node:crypto';
import { createEgress, type Egress } from '../net/egress.ts';
import { buildCatalog, everyCatalogCheck } from '../scanner/catalog.ts';
import { scoringRubric } from '../scanner/rubrics.ts';
import { createScanner } from '../scanner/engine.ts';
import { gridKeys, type Observation } from '../scanner/grid.ts';
import type { EdgeOutcome, EvidenceRecord, Profile } from '../scanner/types.ts';
import type { ScanIntent } from '../scanner/intent-request.ts';
import type { ScanReport } from './api.ts';
import type { LocalTarget } from './args.ts';
import { withOriginHeaders, type ExtraHeader } from './headers.ts';

const STAND_IN = 'local-dev-server.invalid';
const DEADLINE_MS = 25_000;
const PROBE_TIMEOUT_MS = 8_000;

export interface LocalScan {
  origin: string;
  report: ScanReport;
  observations: Observation[];
  outcomes: Record<string, EdgeOutcome>;
  fixes: Map<string, string>;
}

/** The built-in registry's ids, for --assert and --baseline in local mode (no API is asked). */
export function localCatalog(rubric?: string): { rubricVersion: string; ids: string[] } {
  const c = buildCatalog(scoringRubric(rubric));
  return { rubricVersion: c.rubricVersion, ids: c.checks.map((k) => k.id) };
}

export function localOrigin(t: LocalTarget): string {
  return `${t.scheme}://${t.host === '::1' ? '[::1]' : t.host}:${t.port}`;
}

/** Send the engine's stand-in origin to the local server; leave every other URL alone (the egress refuses those). */
function mapOrigin(inner: Egress, origin: string): Egress {
  const toLocal = (url: string) => {
    const u = new URL(url);
    return u.hostname === STAND_IN ? `${origin}${u.pathname}${u.search}` : url;
  };
  const localHost = new URL(origin).hostname;
  return {
    name: 'local', configured: true,
    fetch: (req) => inner.fetch({ ...req, url: toLocal(req.url) }),
    release: (hosts) => inner.release([...hosts].map((h) => (h === STAND_IN ? localHost : h))),
    close: () => inner.close(),
  };
}

/**
 * A report the engine made on this machine, told as this machine's: its one usable network is
 * "this machine" in the prose (the JSON keys stay networkA), the disclosure is the caller's own,
 * and the grid answers become the observations a hosted report would show beside its networks.
 */
export function asThisMachine(full: ScanReport, evidence: readonly EvidenceRecord[], probeMethod: string): Omit<LocalScan, 'origin'> {
  const here = (t: string) => t.replace(/\bnetworkA\b/g, 'this machine');
  full.reasons = full.reasons.map(here);
  full.confidenceNote = here(full.confidenceNote);
  for (const c of full.checks) if (c.detail) c.detail = here(c.detail);
  for (const m of full.matrix) m.notes = m.notes.map(here);
  full.probeMethod = probeMethod;
  const keys = new Set(gridKeys(full.versions.roster));
  const grid = evidence.filter((e) => e.network === 'networkA' && keys.has(e.key));
  const observations = grid.map((e): Observation => ({ key: e.key, status: e.status, bodyBytes: e.bodyBytes, timingMs: e.timingMs, ...(e.errorCode ? { error: e.errorCode } : {}) }));
  const outcomes = Object.fromEntries(grid.map((e) => [e.key, e.outcome]));
  const fixes = new Map(everyCatalogCheck().map((c) => [c.id, c.fix]));
  return { report: full, observations, outcomes, fixes };
}

export async function scanLocally(target: LocalTarget, ask: { profile?: Profile; rubric?: string; intent?: ScanIntent }, headers: readonly ExtraHeader[] = []): Promise<LocalScan> {
  const origin = localOrigin(target);
  // --header on a local scan: sent to the local origin only (mapOrigin turns the stand-in into it first).
  const local = mapOrigin(withOriginHeaders(createEgress({ name: 'local', allowLoopbackTarget: { host: target.host, port: target.port } }), origin, headers), origin);
  // One vantage only: this machine. networkB stays unconfigured, so its cells read `unprobed`.
  const none = createEgress({ name: 'networkB' });
  try {
    const scanner = createScanner({ networks: { networkA: local, networkB: none }, deadlineMs: DEADLINE_MS, probeTimeoutMs: PROBE_TIMEOUT_MS });
    const { report, evidence } = await scanner.scan(STAND_IN, ask);
    // Put the real origin back wherever the stand-in surfaces (domain, reasons, details).
    const text = JSON.stringify(report).replaceAll(`https://${STAND_IN}`, origin).replaceAll(STAND_IN, target.display);
    const full: ScanReport = { ...(JSON.parse(text) as Omit<ScanReport, 'scanId' | 'outreachEligible'>), scanId: randomUUID(), outreachEligible: false };
    return { origin, ...asThisMachine(full, evidence, `Measured from this machine against ${origin} by the agent-readiness CLI (local mode): one GET of the home page per agent as that agent `
      + 'sends it (its published user-agent string, Accept and other headers) and a current Chrome\'s navigation request as the control, plus robots.txt and a fixed list of well-known files. '
      + 'No second network was used and nothing was uploaded; a local server usually has no edge, so agents are rarely turned away here as they may be in production.') };
  } finally {
    await Promise.all([local.close(), none.close()]);
  }
}
