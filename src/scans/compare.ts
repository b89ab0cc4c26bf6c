// GET /r/{scanId}/diff/{otherScanId}: loads two archived site reports and the robots.txt each
// read, and hands them to the pure comparison (src/changes/). Holding both ids is the
// capability: nothing here lists or links reports the caller does not already hold.
import type { Knex } from 'knex';
import { AppError } from '../errors.ts';
import { diffReports, NotComparable, type DiffSideInput, type ReportDiff } from '../changes/diff.ts';
import { ownCopiesOf, type OwnCopy } from '../changes/robots-diff.ts';
import { copyPath } from '../scanner/robots-copies.ts';
import { CONTROL_KEY } from '../scanner/grid.ts';
import { NETWORKS } from '../scanner/types.ts';
import { findScanFile } from '../storage/queries/scanFiles.ts';
import { loadArchivedReport, reportUrlFor } from './archive.ts';
import type { ScanReportBody } from './types.ts';

export function diffUrlFor(baseUrl: string, scanId: string, otherScanId: string): string {
  return `${baseUrl}/r/${scanId}/diff/${otherScanId}`;
}

async function sideOf(db: Knex, baseUrl: string, scanId: string): Promise<DiffSideInput> {
  const found = await loadArchivedReport(db, baseUrl, scanId);
  if (!found) throw new AppError('NOT_FOUND', { error: `No archived report with the id ${scanId}.`, hint: 'Reports of ephemeral tunnel hosts are never archived.' });
  if (found.kind !== 'site') throw new AppError('BAD_REQUEST', { error: `The report ${scanId} is an MCP-server report; only site reports can be compared.` });
  const r = found.report as unknown as ScanReportBody;
  // A network is usable when its browser control passed (scanner/matrix.ts); the evidence keeps each control's outcome.
  const usable = NETWORKS.filter((n) => found.evidence.some((e) => e.network === n && e.key === CONTROL_KEY && e.outcome === 'pass'));
  const robots = await findScanFile(db, scanId, '/robots.txt');
  // Agents served a copy of their own: each copy is kept under its own path (scanner/engine.ts).
  const own = new Map<string, OwnCopy>();
  for (const [token, c] of ownCopiesOf(r.robotsTxt)) {
    const kept = c.state === 'absent' ? { path: '', state: 'absent' as const } : await findScanFile(db, scanId, copyPath(c.sha256));
    own.set(token, { sha256: c.sha256, file: kept ? { state: kept.state, ...(kept.body !== undefined ? { body: kept.body } : {}) } : null });
  }
  return {
    report: { scanId, domain: r.domain, scannedAt: r.scannedAt, headline: r.headline, score: r.score, confidence: r.confidence, checks: r.checks, matrix: r.matrix },
    reportUrl: reportUrlFor(baseUrl, scanId),
    usable,
    robotsTxt: robots ? { state: robots.state, ...(robots.body !== undefined ? { body: robots.body } : {}) } : null,
    ownRobotsTxt: own,
  };
}

/** The diff of two archived site reports; AppError 404 (unknown id) or 400 (different domains, an MCP report). */
export async function compareArchived(db: Knex, baseUrl: string, scanId: string, otherScanId: string): Promise<ReportDiff> {
  const before = await sideOf(db, baseUrl, scanId);
  const after = await sideOf(db, baseUrl, otherScanId);
  try {
    return diffReports(before, after, diffUrlFor(baseUrl, scanId, otherScanId));
  } catch (err) {
    if (err instanceof NotComparable) throw new AppError('BAD_REQUEST', { error: err.message, hint: 'Compare two reports of the same domain.' });
    throw err;
  }
}
