// The scan service's view of its collaborators, kept small so tests can swap each one.
import type { EngineReport, EvidenceRecord, Profile } from '../scanner/types.ts';
import type { ScannedFile } from '../scanner/engine.ts';
import type { Resolution } from '../net/resolve.ts';
import type { components } from '../../generated/api-types.ts';
import type { ProgressSink } from '../scanner/progress.ts';
import type { ProgressListener } from './progress-relay.ts';
import type { ScanIntent } from '../scanner/intent-request.ts';

export type { ScanIntent };

export type { EngineReport, EvidenceRecord, Profile };

/** The engine, as the service uses it (src/scanner/engine.ts satisfies this). */
export interface SiteScanner {
  scan(domain: string, opts: { profile?: Profile; rubric?: string; intent?: ScanIntent; signal?: AbortSignal; onProgress?: ProgressSink }): Promise<{ report: EngineReport; evidence: EvidenceRecord[]; files?: ScannedFile[] }>;
}

/** Pre-flight DNS: static SCAN_RESOLVE answers first, then DNS (src/net/resolve.ts). */
export type Resolver = (host: string) => Promise<Resolution>;

export interface ScanInput {
  domain: unknown;
  lead: unknown;
  fresh?: boolean;
  /** Unchecked as it arrives; the service judges it by the contract's Profile enum. */
  profile?: unknown;
  /** Unchecked as it arrives; judged by the contract's ScanIntent schema. */
  intent?: unknown;
  /** Unchecked as it arrives; the service judges it by the contract's ScoringRubric enum. Absent: the current rubric. */
  rubric?: unknown;
  turnstileToken?: unknown;
  clientIp: string;
  /** Hears the scan's phases (the web form's progress); a coalesced request hears the scan it shares. */
  onProgress?: ProgressListener;
}

/** The contract's records (openapi.yaml), as the service sends and stores them. */
export type ScanReportBody = components['schemas']['ScanReport'];
export type CliVantage = components['schemas']['CliVantage'];
export type StoredObservation = components['schemas']['StoredObservation'];

export interface ScanOutcome {
  body: ScanReportBody;
  headers: { 'RateLimit-Limit': string; 'RateLimit-Remaining': string };
}

