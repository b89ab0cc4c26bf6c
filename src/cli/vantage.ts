/**
 * The third vantage: the report's probe grid rerun from the caller's own
 * network with the engine's own grid code (src/scanner/grid.ts), then offered
 * to the report through the one-time upload. It is self-reported evidence and
 * never changes the hosted verdict or score.
 */
import { createEgress, type Egress } from '../net/egress.ts';
import { parseScanResolve } from '../net/resolve.ts';
import { CONTROL_KEY, homeUrl, probeGrid, type Observation } from '../scanner/grid.ts';
import type { EdgeOutcome } from '../scanner/types.ts';
import type { Api, ScanReport } from './api.ts';
import { describeProxy, proxyFor, type Env } from './proxy-env.ts';

export interface UserVantage {
  observedAt: string;
  /** "direct" or "through <proxy origin>" (credentials removed). */
  via: string;
  observations: Observation[];
  outcomes: Record<string, EdgeOutcome>;
  /** Why the browser control failed, in words (e.g. the proxy's 407): shown to the caller, never uploaded. */
  controlProblem?: string;
}

export type UploadResult =
  | { status: 'attached'; attached: number; reportUrl: string }
  | { status: 'not-uploaded'; reason: string }
  | { status: 'failed'; httpStatus?: number; reason: string };

const PROBE_TIMEOUT_MS = 8000;

/** The caller's own network for `domain`: direct, or through HTTPS_PROXY as curl goes. */
export function userNetworkEgress(domain: string, env: Env): Egress {
  const proxy = proxyFor(homeUrl(domain), env);
  return createEgress({
    name: 'user',
    // Through a proxy, as curl does: CONNECT host:port and the proxy resolves, so no local DNS is needed.
    // Direct, names are resolved here (SCAN_RESOLVE first, for test worlds and split horizons) and guarded.
    ...(proxy ? { proxyUrl: proxy, proxyResolvesNames: true } : { allowDirect: true, resolve: parseScanResolve(env.SCAN_RESOLVE) }),
  });
}

/** Probe `control:browser` and every `grid:<token>` of the report's roster from this machine's network. */
export async function probeFromHere(report: Pick<ScanReport, 'domain' | 'versions'>, env: Env): Promise<UserVantage> {
  const proxy = proxyFor(homeUrl(report.domain), env);
  const egress = userNetworkEgress(report.domain, env);
  const observedAt = new Date().toISOString();
  try {
    const run = await probeGrid(report.domain, egress, { timeoutMs: PROBE_TIMEOUT_MS, rosterVersion: report.versions.roster, concurrency: 8 });
    const controlProblem = run.views[CONTROL_KEY]?.record.errorMessage ?? undefined;
    return { observedAt, via: proxy ? `through ${describeProxy(proxy)}` : 'direct', observations: run.observations, outcomes: run.outcomes, ...(controlProblem ? { controlProblem } : {}) };
  } finally {
    await egress.close();
  }
}

/** Why this report takes no upload, or null when it carries a token. */
export function whyNoUpload(report: ScanReport): string | null {
  if (report.cliUploadToken) return null;
  if (report.ephemeral) return 'this is a temporary tunnel host: its scan is never archived, so there is no report to attach your network\'s results to';
  if (report.coalesced) {
    const age = report.ageMs !== undefined ? ` ${Math.round(report.ageMs / 1000)} s ago` : '';
    return `this result was shared from an identical scan that finished${age}; only the run that created a report may attach to it (use --fresh for a scan of your own)`;
  }
  if (!report.reportUrl) return 'the report could not be archived, so there is nothing to attach your network\'s results to';
  return 'the API returned no upload token for this report';
}

/** Upload once; every failure (409 included) is a warning for the caller, never a reason to fail the run. */
export async function uploadVantage(api: Api, report: ScanReport, vantage: UserVantage): Promise<UploadResult> {
  const reason = whyNoUpload(report);
  if (reason !== null) return { status: 'not-uploaded', reason };
  const answer = await api.upload(report.scanId, {
    domain: report.domain,
    uploadToken: report.cliUploadToken!,
    observedAt: vantage.observedAt,
    observations: vantage.observations,
  });
  if (answer.ok) return { status: 'attached', attached: answer.attached, reportUrl: answer.reportUrl };
  return { status: 'failed', ...(answer.status !== undefined ? { httpStatus: answer.status } : {}), reason: answer.message };
}
