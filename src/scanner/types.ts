/**
 * Types shared across the scanner. Report-facing shapes follow
 * shared/spec/service-spec.md field for field.
 */
import type { EdgeOutcome } from './classify.ts';
import type { Intent } from './roster.ts';
import type { PageDigest } from './page-digest.ts';

export type { EdgeOutcome, Intent };
export type NetworkName = 'networkA' | 'networkB';
export const NETWORKS: readonly NetworkName[] = ['networkA', 'networkB'];

export type Profile = 'general' | 'dev-platform' | 'docs' | 'publisher';
export const PROFILES: readonly Profile[] = ['general', 'dev-platform', 'docs', 'publisher'];

export type Headline = 'open' | 'partially-blocked' | 'agent-hostile' | 'contradictory' | 'unknown';
export type MatrixVerdict = 'pass' | 'blocked-consistent' | 'denied' | 'reduced-content' | 'inconclusive' | 'not-probeable';
export type CheckStatus = 'pass' | 'fail' | 'inconclusive' | 'skipped' | 'error';

/** One stored probe: enough to reproduce a verdict by hand. JSON-serialisable. */
export interface EvidenceRecord {
  /** Content-derived, deterministic: the same request with the same answer has the same id. */
  id: string;
  network: NetworkName;
  key: string;
  url: string;
  userAgent: string;
  accept: string;
  /** What was sent: the method and every request header (Host included). Absent on reports archived before they were recorded. */
  method?: string;
  requestHeaders?: Record<string, string>;
  /** One line of curl that repeats the request. */
  curl?: string;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  headers: Record<string, string>;
  setCookieNames: string[];
  bodySha256: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  title: string;
  /** Characters of visible text, exactly as the verdicts measure it (script, style and hidden parts excluded; 0 unless the response passed). */
  textChars: number;
  timingMs: number;
  redirects: string[];
  finalUrl: string;
  outcome: EdgeOutcome;
  vendors: string[];
  markers: string[];
}

/** A probe as the checks see it: the record plus the decoded body. */
export interface FetchedView {
  record: EvidenceRecord;
  ok: boolean;
  status: number;
  headers: Record<string, string>;
  contentType: string;
  body: string;
  outcome: EdgeOutcome;
  /** A passing home page's digest (page-digest.ts): what content.ts and soft-block.ts compare once the body is gone. */
  digest?: PageDigest;
}

export interface MatrixEntry {
  ua: string;
  intent: Intent;
  robotsSays: 'allowed' | 'blocked' | 'partial' | 'unknown';
  edgeDoes: Record<NetworkName, EdgeOutcome> | null;
  httpStatus: Record<NetworkName, number> | null;
  verdict: MatrixVerdict;
  measurement: 'measured' | 'inferred' | 'could-not-measure';
  attributedVendors: string[];
  notes: string[];
  /** Who answered each denied or unmeasured cell (parties.ts). */
  refusedBy?: Partial<Record<NetworkName, components['schemas']['RefusingParty']>>;
  /** The decoded offer of each 402 answer (prices.ts). */
  offers?: Partial<Record<NetworkName, components['schemas']['AgentOffer']>>;
  /** The page each network served the agent, against the browser's (content.ts); absent for token-only agents and older reports. */
  content?: MatrixContent;
}

export type ContentResult = 'same' | 'reduced' | 'different' | 'not-compared';
export interface MatrixContent {
  networkA: ContentResult;
  networkB: ContentResult;
  /** What differs from the browser's page, over both networks. */
  differs?: Array<'title' | 'text' | 'canonical'>;
  /** Documented headers of edge products that serve agents pages of their own, where the agent's answer carried one. */
  agentServing?: Array<{ network: NetworkName; header: string; product: string }>;
}

export interface CheckResult {
  id: string;
  category: string;
  weight: number;
  status: CheckStatus;
  credit?: number;
  detail?: string;
  /** Preview rubric checks: the generation of the standard the evidence matched. */
  generation?: string;
}

/** The next rubric scored beside the current one (openapi RubricPreview). */
export interface RubricPreview {
  rubricVersion: string;
  score: Score;
  checks: CheckResult[];
  changes: Array<{ checkId: string; change: 'added' | 'removed' | 'reweighted' | 'revised'; weightBefore: number | null; weightAfter: number | null; note: string }>;
}

export interface Score {
  value: number | null;
  display: string;
  decidedCount: number;
  minDecided: number;
  categories: Record<string, number | null>;
  rubricVersion: string;
}

/** Every ScanReport field the engine can compute from evidence (the API layer adds the rest). */
export interface EngineReport {
  schemaVersion: number;
  domain: string;
  scannedAt: string;
  headline: Headline;
  reasons: string[];
  confidence: 'high' | 'medium' | 'low';
  confidenceNote: string;
  vantagesConfirmed: boolean;
  score: Score;
  profile: Profile | null;
  checks: CheckResult[];
  matrix: MatrixEntry[];
  evidenceRefs: string[];
  probeMethod: string;
  versions: { schema: number; rubric: string; roster: string; fingerprints: string };
  preview?: RubricPreview;
  platforms?: components['schemas']['PlatformAttribution'][];
  platformFixes?: components['schemas']['PlatformFix'][];
  robotsPatch?: components['schemas']['RobotsPatch'];
  robotsTxt?: components['schemas']['RobotsTxtReport'];
  intent?: components['schemas']['IntentReport'];
}

// Compile-time proof that the engine's report is the API's ScanReport minus the fields the API layer adds.
import type { components } from '../../generated/api-types.ts';
export type ApiLayerFields = 'scanId' | 'outreachEligible' | 'coalesced' | 'ageMs' | 'cliUploadToken' | 'reportUrl' | 'ephemeral' | 'ephemeralNote' | 'cliVantage';
export type ApiEngineReport = Omit<components['schemas']['ScanReport'], ApiLayerFields>;
type AssertEngineReport = EngineReport extends ApiEngineReport ? true : never;
export const ENGINE_REPORT_MATCHES_API: AssertEngineReport = true;
