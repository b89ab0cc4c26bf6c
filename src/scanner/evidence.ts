/**
 * The immutable evidence snapshot a scan gathers before judging anything.
 * Checks, the headline and the profile are pure functions of it.
 */
import type { AgentRow } from './matrix.ts';
import type { PageFacts, PageLink } from './page.ts';
import type { RobotsFile } from './robots.ts';
import type { RobotsCopies } from './robots-copies.ts';
import type { RosterAgent } from './roster.ts';
import type { FetchedView, NetworkName } from './types.ts';
import { judgeFile, type FileState } from './file-judge.ts';
import type { DnsEvidence } from './dns-lookups.ts';

export interface ScanEvidence {
  domain: string;
  scannedAt: Date;
  roster: readonly RosterAgent[];
  /** robots.txt as the browser control got it (the file every site-wide check reads). */
  robots: RobotsFile;
  /** robots.txt fetched with the browser UA and with an agent UA (ChatGPT-User), from the auxiliary network. */
  robotsFetch: FetchedView;
  robotsAgentFetch: FetchedView;
  /** robots.txt as each requester got it (robots-copies.ts); absent in evidence built before it was read per requester. */
  robotsTxt?: RobotsCopies;
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
  /**
   * GET / as each product that asks for Markdown in its own Accept sends it (roster-v1.1 on), by
   * product id; a product's follow-up of the Markdown alternate is in `followups` as `markdown:<id>`.
   */
  products: Record<string, FetchedView>;
  /** The home page as agent-readiness itself, unsigned and signed with Web Bot Auth, per network (null when signing is off). */
  wba: Record<NetworkName, { unsigned: FetchedView; signed: FetchedView }> | null;
  /** Second-round probes (links sampled from llms.txt, canonical, service-desc...) by key. */
  followups: Record<string, FetchedView>;
  /** The DNS discovery lookups by DNS over HTTPS (dns-lookups.ts); absent when no resolver is configured. */
  dns?: DnsEvidence;
  /** Each signature of the A2A agent card, verified after round two (a2a-signatures.ts); absent when the card carries none. */
  a2aSignatures?: CardSignatureResult[];
}

export type { FileState };

/** One signature of the A2A agent card, as a2a-signatures.ts verified it. */
export interface CardSignatureResult {
  index: number;
  alg?: string;
  kid?: string;
  /** Where the key came from: `jku <url>`, `jwks_uri <url>`, `embedded jwk`. */
  keySource?: string;
  outcome: 'verified' | 'invalid' | 'unverifiable';
  reason: string;
}


/**
 * Was the file there, and is it the file? The one judgement of src/scanner/file-judge.ts: absent
 * on a plain 4xx the edge did not mitigate, and also on a 2xx that holds an HTML page, an app
 * shell or a "not found" message where the file's own format was expected; a denial, a 5xx or a
 * transport failure means we could not tell.
 */
export function fileState(v: FetchedView | undefined): FileState {
  return judgeFile(v).state;
}

/**
 * Content-Type or leading markup says HTML. Only the home page's Markdown negotiation
 * (content.markdown-negotiation) reads a response this way; files use fileState.
 */
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
