// Between the service's report shapes and the archive rows. The archived payload is the
// report minus what belongs to one response only (coalesced, ageMs, cliUploadToken,
// reportUrl); the lead and the token hash sit in their own columns and never leave.
import type { Knex } from 'knex';
import { findCliVantage } from '../storage/queries/cliVantage.ts';
import { findEarlierSiteScans, type HistoryPoint } from '../storage/queries/domainHistory.ts';
import { findScan } from '../storage/queries/findScan.ts';
import type { ScanRow } from '../storage/queries/archiveScan.ts';
import type { CliVantage, EvidenceRecord, ScanReportBody } from './types.ts';

const RESPONSE_ONLY = ['coalesced', 'ageMs', 'cliUploadToken', 'reportUrl'] as const;

export function archivedPayload(body: ScanReportBody): ScanReportBody {
  const copy = { ...body };
  for (const key of RESPONSE_ONLY) delete copy[key];
  return copy;
}

export function reportUrlFor(baseUrl: string, scanId: string): string {
  return `${baseUrl}/r/${scanId}`;
}

export function vendorsOf(body: ScanReportBody): string[] {
  return [...new Set(body.matrix.flatMap((m) => m.attributedVendors))];
}

export interface ArchivedReport {
  kind: 'site' | 'mcp-server';
  row: ScanRow;
  /** The public JSON: archived payload + reportUrl + cliVantage when attached. */
  report: Record<string, unknown>;
  evidence: EvidenceRecord[];
  cliVantage: CliVantage | null;
}

/** Loads an archived report for the public surfaces (page, JSON, MCP get_report). */
export async function loadArchivedReport(db: Knex, baseUrl: string, scanId: string): Promise<ArchivedReport | null> {
  const row = await findScan(db, scanId);
  if (!row) return null;
  const payload = JSON.parse(row.report) as Record<string, unknown>;
  const attached = row.kind === 'site' ? await findCliVantage(db, scanId) : null;
  const cliVantage = attached ? (JSON.parse(attached) as CliVantage) : null;
  const report: Record<string, unknown> = { ...payload, reportUrl: reportUrlFor(baseUrl, scanId) };
  if (row.kind === 'mcp-server') report.archived = true;
  if (cliVantage) report.cliVantage = cliVantage;
  return { kind: row.kind, row, report, evidence: row.evidence ? (JSON.parse(row.evidence) as EvidenceRecord[]) : [], cliVantage };
}

/** How many earlier scans a report page shows in its history. */
export const HISTORY_LIMIT = 12;

/** The domain's site scans archived before this one, oldest first (dates, headlines, scores; no ids). */
export function loadReportHistory(db: Knex, row: Pick<ScanRow, 'id' | 'domain' | 'scanned_at'>): Promise<HistoryPoint[]> {
  return findEarlierSiteScans(db, row.domain, { scannedAt: row.scanned_at, id: row.id }, HISTORY_LIMIT);
}
