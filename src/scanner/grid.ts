/**
 * The probe grid: the browser control and every probeable roster agent asking
 * for the home page. One definition shared by the service (both networks),
 * the CLI (the caller's own network) and the cli-vantage upload (key filter).
 */
import type { Egress } from '../net/egress.ts';
import { agentHeaders, browserUserAgent, controlHeaders, probeableAgents, type HeaderList } from './roster.ts';
import { createLimiter, runProbe, type Limiter, type ProbeContext } from './probe.ts';
import type { EdgeOutcome, FetchedView, NetworkName } from './types.ts';

export const CONTROL_KEY = 'control:browser';

/** `control:browser`, then `grid:<token>` for each probeable agent, in roster order. */
export function gridKeys(rosterVersion?: string): string[] {
  return [CONTROL_KEY, ...probeableAgents(rosterVersion).map((a) => `grid:${a.token}`)];
}

/** One cell: its key, and the whole request sent for it (the roster's, for the roster version asked). */
export interface GridCellSpec { key: string; userAgent: string; token: string | null; headers: HeaderList }

export function gridCells(rosterVersion?: string): GridCellSpec[] {
  return [
    { key: CONTROL_KEY, userAgent: browserUserAgent(rosterVersion), token: null, headers: controlHeaders(rosterVersion) },
    ...probeableAgents(rosterVersion).map((a) => ({ key: `grid:${a.token}`, userAgent: a.ua!, token: a.token, headers: agentHeaders(a) })),
  ];
}

/** One grid cell as the CLI uploads it (service-spec Observation). */
export interface Observation { key: string; status: number; bodyBytes: number; timingMs: number; error?: string }

export interface GridRun {
  observations: Observation[];
  outcomes: Record<string, EdgeOutcome>;
  views: Record<string, FetchedView>;
}

export interface ProbeGridOptions {
  timeoutMs: number;
  /** Parallel requests to the site from this egress. */
  concurrency?: number;
  signal?: AbortSignal;
  rosterVersion?: string;
  /** Label used in evidence; the CLI passes its own name. */
  network?: NetworkName;
  /** Share a limiter / budget with other probes of the same scan. */
  limiter?: Limiter;
  budget?: { remaining: number };
}

export function homeUrl(domain: string): string {
  return `https://${domain}/`;
}

/** Probe the whole grid for `domain` through one egress; every cell runs in parallel under the bound. */
export async function probeGrid(domain: string, egress: Egress, opts: ProbeGridOptions): Promise<GridRun> {
  const limiter = opts.limiter ?? createLimiter(opts.concurrency ?? 8);
  const ctx: ProbeContext = { timeoutMs: opts.timeoutMs, signal: opts.signal ?? new AbortController().signal, budget: opts.budget ?? { remaining: 200 } };
  const network = opts.network ?? 'networkA';
  const cells = gridCells(opts.rosterVersion);
  const views = await Promise.all(cells.map((c) => runProbe(egress, limiter, { key: c.key, network, url: homeUrl(domain), userAgent: c.userAgent, arrival: c.headers, isHome: true }, ctx)));
  const run: GridRun = { observations: [], outcomes: {}, views: {} };
  cells.forEach((c, i) => {
    const v = views[i]!;
    run.views[c.key] = v;
    run.outcomes[c.key] = v.outcome;
    const o: Observation = { key: c.key, status: v.status, bodyBytes: v.record.bodyBytes, timingMs: v.record.timingMs };
    if (v.record.errorCode) o.error = v.record.errorCode;
    run.observations.push(o);
  });
  return run;
}
