// POST /r/{scanId}/cli-vantage: the one-time, self-reported user-network vantage. It is
// stored beside the report (never inside it), so the archived verdict and score cannot change.
import type { Knex } from 'knex';
import { AppError } from '../errors.ts';
import { normalizeDomain } from '../net/domain.ts';
import { gridKeys } from '../scanner/grid.ts';
import { findCliVantage, insertCliVantage } from '../storage/queries/cliVantage.ts';
import { findScan } from '../storage/queries/findScan.ts';
import { reportUrlFor } from './archive.ts';
import { tokenMatches } from './token.ts';
import type { CliVantage, StoredObservation } from './types.ts';

export const ATTACH_WINDOW_MS = 7 * 24 * 3600 * 1000;
export const MAX_OBSERVATIONS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AttachDeps {
  db: Knex;
  now: () => Date;
  baseUrl: string;
  /** Called once the vantage is stored, so read caches holding the old page drop it. */
  onAttached?: (scanId: string) => void;
}
export interface Attached { ok: true; attached: number; reportUrl: string }

const bad = (error: string, hint?: string) => new AppError('BAD_REQUEST', hint ? { error, hint } : { error });
const tokenRefused = () => new AppError('UPLOAD_TOKEN_INVALID', {
  error: 'The upload token is missing or invalid.',
  hint: 'Use the cliUploadToken returned by the fresh scan that created this report.',
});
const alreadyAttached = () => new AppError('CONFLICT', { error: 'A user-network vantage is already attached to this report.' });

const nonNegInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Keeps observations whose key is in the report's grid and whose fields are sound; first of a key wins. */
export function validObservations(input: unknown[], grid: ReadonlySet<string>): StoredObservation[] {
  const seen = new Set<string>();
  const out: StoredObservation[] = [];
  for (const o of input) {
    if (typeof o !== 'object' || o === null) continue;
    const r = o as Record<string, unknown>;
    if (typeof r.key !== 'string' || !grid.has(r.key) || seen.has(r.key)) continue;
    if (!Number.isInteger(r.status) || (r.status as number) < 0 || (r.status as number) > 999) continue;
    if (r.bodyBytes !== undefined && !nonNegInt(r.bodyBytes)) continue;
    if (r.timingMs !== undefined && !nonNegInt(r.timingMs)) continue;
    if (r.error !== undefined && (typeof r.error !== 'string' || r.error.length > 500)) continue;
    seen.add(r.key);
    const stored: StoredObservation = { key: r.key, status: r.status as number, bodyBytes: (r.bodyBytes as number) ?? 0, timingMs: (r.timingMs as number) ?? 0 };
    if (typeof r.error === 'string') stored.error = r.error;
    out.push(stored);
  }
  return out;
}

export async function attachCliVantage(d: AttachDeps, scanId: unknown, body: unknown): Promise<Attached> {
  if (typeof scanId !== 'string' || !UUID.test(scanId)) throw bad('The report id is not a valid id.', 'Use the id at the end of the reportUrl.');
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (typeof b.uploadToken !== 'string' || b.uploadToken.length === 0) throw tokenRefused();
  const id = scanId.toLowerCase();
  const row = await findScan(d.db, id);
  if (!row || row.kind !== 'site') throw new AppError('NOT_FOUND', { error: 'No archived report with that id.' });
  if (!tokenMatches(b.uploadToken, row.upload_token_hash)) throw tokenRefused();

  const given = typeof b.domain === 'string' ? normalizeDomain(b.domain) : null;
  if (!given?.ok || given.domain !== row.domain) {
    throw new AppError('BAD_REQUEST', { error: 'The domain does not match the report.', domain: row.domain });
  }
  if ((await findCliVantage(d.db, id)) !== null) throw alreadyAttached();
  const now = d.now();
  if (now.getTime() - Date.parse(row.scanned_at) > ATTACH_WINDOW_MS) {
    throw new AppError('GONE', { error: 'The 7-day attach window of this report has closed.', hint: 'Run a fresh scan and attach to it.' });
  }
  if (!Array.isArray(b.observations) || b.observations.length === 0) throw bad('`observations` must hold 1 to 100 observations.');
  if (b.observations.length > MAX_OBSERVATIONS) throw bad(`At most ${MAX_OBSERVATIONS} observations per upload.`);
  const report = JSON.parse(row.report) as { versions?: { roster?: string } };
  const observations = validObservations(b.observations, new Set(gridKeys(report.versions?.roster)));
  if (observations.length === 0) {
    throw bad('No valid observation: every key was outside the probe grid or malformed.', 'Keys are control:browser or grid:<agent token> of the report\'s roster.');
  }
  const observedAt = typeof b.observedAt === 'string' && !Number.isNaN(Date.parse(b.observedAt)) ? new Date(b.observedAt).toISOString() : now.toISOString();
  const vantage: CliVantage = { selfReported: true, observedAt, observations };
  if ((await insertCliVantage(d.db, id, JSON.stringify(vantage), now.toISOString())) === 'exists') throw alreadyAttached();
  d.onAttached?.(id);
  return { ok: true, attached: observations.length, reportUrl: reportUrlFor(d.baseUrl, id) };
}
