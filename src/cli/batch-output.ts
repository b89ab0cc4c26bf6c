/**
 * A batch's rows as the CLI writes them: CSV (the service's own columns), JSON lines, or text for
 * a person. Every string in a row came through the service from the scanned sites or the input
 * file (domains as typed, error sentences), so each row is made plain (sanitize.ts) before any
 * format sees it, as the scan command does with its report.
 */
import { stringify } from 'csv-stringify/sync';
import type { Batch, BatchResultRow } from './batch-api.ts';
import type { BatchFormat } from './batch-args.ts';
import { cleanDeep } from './sanitize.ts';
import { padEnd, type Style } from './style.ts';

export const RESULT_COLUMNS = ['domain', 'state', 'scanId', 'reportUrl', 'headline', 'score', 'confidence', 'error'] as const;

export interface RowWriter {
  header(): string;
  row(row: BatchResultRow): string;
}

export function rowWriter(format: BatchFormat, style: Style): RowWriter {
  switch (format) {
    case 'csv':
      return {
        header: () => `${RESULT_COLUMNS.join(',')}\n`,
        row: (r) => stringify([cleanDeep(r)], { columns: [...RESULT_COLUMNS] }),
      };
    case 'jsonl':
      return { header: () => '', row: (r) => `${JSON.stringify(cleanDeep(r))}\n` };
    case 'text':
      return { header: () => '', row: (r) => textRow(cleanDeep(r), style) };
  }
}

const STATE_WIDTH = 9;

function textRow(r: BatchResultRow, style: Style): string {
  if (r.state === 'done') {
    const score = r.score === null ? 'no score' : `${r.score}/100`;
    return `${padEnd(style.green('scanned'), STATE_WIDTH)}${r.domain}  ${r.headline ?? 'unknown'}  ${score}  ${r.reportUrl ?? '(no report link)'}\n`;
  }
  const why = r.state === 'failed' ? `could not test: ${r.error ?? 'no reason given'}` : r.state === 'cancelled' ? 'cancelled before it started' : 'not finished';
  return `${padEnd(style.red(r.state), STATE_WIDTH)}${r.domain}  ${why}\n`;
}

/** The progress line: a bar, the counts and the service's estimate of the time left. */
export function progressLine(b: Batch, width = 24): string {
  const finished = b.done + b.failed + b.cancelled;
  const filled = b.total ? Math.round((finished / b.total) * width) : 0;
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const failed = b.failed ? `, ${b.failed} could not be tested` : '';
  const left = b.estimatedSecondsLeft === null ? '' : `, about ${formatSeconds(b.estimatedSecondsLeft)} left`;
  return `${bar} ${finished}/${b.total} ${b.status}${failed}${left}`;
}

export function formatSeconds(s: number): string {
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
