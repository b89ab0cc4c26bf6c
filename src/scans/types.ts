// The scan service's view of its collaborators, kept small so tests can swap each one.
import type { EngineReport, EvidenceRecord, Profile } from '../scanner/types.ts';
import type { Resolution } from '../net/resolve.ts';

export type { EngineReport, EvidenceRecord, Profile };

/** The engine, as the service uses it (src/scanner/engine.ts satisfies this). */
export interface SiteScanner {
  scan(domain: string, opts: { profile?: Profile; signal?: AbortSignal }): Promise<{ report: EngineReport; evidence: EvidenceRecord[] }>;
}

/** Pre-flight DNS: static SCAN_RESOLVE answers first, then DNS (src/net/resolve.ts). */
export type Resolver = (host: string) => Promise<Resolution>;

export interface ScanInput {
  domain: unknown;
  lead: unknown;
  fresh?: boolean;
  profile?: Profile;
  turnstileToken?: unknown;
  clientIp: string;
}

/** The ScanReport as sent on POST /scan (service spec "ScanReport"). */
export type ScanReportBody = Omit<EngineReport, 'domain'> & {
  scanId: string;
  domain: string;
  outreachEligible: boolean;
  coalesced?: boolean;
  ageMs?: number;
  cliUploadToken?: string;
  reportUrl?: string;
  ephemeral?: boolean;
  ephemeralNote?: string;
  cliVantage?: CliVantage;
};

export interface StoredObservation { key: string; status: number; bodyBytes: number; timingMs: number; error?: string }
export interface CliVantage { selfReported: true; observedAt: string; observations: StoredObservation[] }

export interface ScanOutcome {
  body: ScanReportBody;
  headers: { 'RateLimit-Limit': string; 'RateLimit-Remaining': string };
}
