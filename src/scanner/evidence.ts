/**
 * The immutable evidence snapshot a scan gathers before judging anything.
 * Checks, the headline and the profile are pure functions of it.
 */
import type { AgentRow } from './matrix.ts';
import type { PageFacts, PageLink } from './page.ts';
import type { RobotsFile } from './robots.ts';
import type { RosterAgent } from './roster.ts';
import type { FetchedView, NetworkName } from './types.ts';

export interface ScanEvidence {
  domain: string;
  scannedAt: Date;
  roster: readonly RosterAgent[];
  robots: RobotsFile;
  /** robots.txt fetched with the browser UA and with an agent UA (ChatGPT-User), from the auxiliary network. */
  robotsFetch: FetchedView;
  robotsAgentFetch: FetchedView;
  controls: Record<NetworkName, FetchedView>;
  usable: NetworkName[];
  /** Grid cells per probeable agent token and network. */
  cells: Record<string, Record<NetworkName, FetchedView>>;
  rows: AgentRow[];
  /** The home page as the browser control received it (first usable network), null if none passed. */
  home: FetchedView | null;
  page: PageFacts | null;
  /** Link header entries and HTML <link> elements of the home page. */
  homeLinks: PageLink[];
  /** Well-known and conventional files by path, e.g. '/llms.txt'. */
  files: Record<string, FetchedView>;
  /** GET / with Accept: text/markdown. */
  markdown: FetchedView;
  /** The home page as agent-readiness itself, unsigned and signed with Web Bot Auth, per network (null when signing is off). */
  wba: Record<NetworkName, { unsigned: FetchedView; signed: FetchedView }> | null;
  /** Second-round probes (links sampled from llms.txt, canonical, service-desc...) by key. */
  followups: Record<string, FetchedView>;
}

export type FileState = 'present' | 'absent' | 'unknown';

/**
 * Was a file there? Absent only on a plain 4xx the edge did not mitigate;
 * a denial, a 5xx or a transport failure means we could not tell.
 */
export function fileState(v: FetchedView | undefined): FileState {
  if (!v || !v.ok) return 'unknown';
  if (v.outcome === 'challenge' || v.outcome === 'block' || v.outcome === 'rate-limited' || v.outcome === 'auth') return 'unknown';
  if (v.status >= 500) return 'unknown';
  if (v.status >= 200 && v.status < 300 && v.body.length > 0) return 'present';
  if (v.status >= 200 && v.status < 300) return 'absent';
  return 'absent';
}

export function isHtml(v: FetchedView): boolean {
  return /html/i.test(v.contentType) || /^\s*<(!doctype html|html)/i.test(v.body.slice(0, 200));
}

export function parseJson(v: FetchedView | undefined): unknown {
  if (!v || fileState(v) !== 'present') return undefined;
  try {
    return JSON.parse(v.body) as unknown;
  } catch {
    return undefined;
  }
}
