// The wire shapes of batches (openapi.yaml: BatchAccepted, Batch, BatchResultRow, BatchSummary),
// built from rows; pure.
import type { BatchRow, ItemRow } from '../storage/queries/batches.ts';
import type { Rejected } from './parse.ts';
import type { Summary } from './summary.ts';

import type { Links } from './links.ts';

export function batchBody(row: BatchRow, counts: { byState: Record<string, number>; byHeadline: Record<string, number> }, links: Links, nowMs: number) {
  const n = (k: string) => counts.byState[k] ?? 0;
  const finished = n('done') + n('failed');
  const pending = n('pending') + n('running');
  let estimate: number | null = null;
  if (row.started_at && finished > 0 && pending > 0) {
    const perItem = (nowMs - Date.parse(row.started_at)) / finished;
    estimate = Math.max(0, Math.round((perItem * pending) / 1000));
  }
  return {
    batchId: row.id, status: row.status, label: row.label, profile: row.profile, total: row.total,
    done: n('done'), failed: n('failed'), pending, cancelled: n('cancelled'), byHeadline: counts.byHeadline,
    createdAt: row.created_at, startedAt: row.started_at, finishedAt: row.finished_at, estimatedSecondsLeft: estimate,
    rejected: JSON.parse(row.rejected) as Rejected[], links,
  };
}

export const RESULT_COLUMNS = ['domain', 'state', 'scanId', 'reportUrl', 'headline', 'score', 'confidence', 'error'] as const;

export function resultRow(item: ItemRow, baseUrl: string) {
  const error = item.error ? (JSON.parse(item.error) as { error: string; detail?: string }) : null;
  return {
    domain: item.domain,
    state: item.state === 'running' ? 'pending' : item.state,
    scanId: item.scan_id,
    reportUrl: item.scan_id && item.report_archived ? `${baseUrl}/r/${item.scan_id}` : null,
    headline: item.headline,
    score: item.score,
    confidence: item.confidence,
    error: error ? (error.detail ? `${error.error} ${error.detail}` : error.error) : null,
  };
}

export function summaryBody(row: BatchRow, s: Summary) {
  return { batchId: row.id, status: row.status, total: row.total, ...s };
}
