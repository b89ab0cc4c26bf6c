// The files a scan read (migration 008): written in the archive transaction, read to compare
// two scans. A body is stored once per content; a scan row points at it by hash.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

export type ScanFileState = 'present' | 'absent' | 'unknown';

/** One file as a scan read it; `body` only when `state` is present. */
export interface ScanFile {
  path: string;
  state: ScanFileState;
  body?: string;
}

/** Writes the scan's files inside `trx` (the archive transaction). */
export async function writeScanFiles(trx: Knex | Knex.Transaction, scanId: string, files: readonly ScanFile[]): Promise<void> {
  for (const f of files) {
    let sha: string | null = null;
    if (f.state === 'present') {
      const body = f.body ?? '';
      sha = createHash('sha256').update(body, 'utf8').digest('hex');
      // Another scan may have stored the same body, even at the same moment: the first write wins, both point at it.
      await trx('file_bodies').insert({ sha256: sha, body }).onConflict('sha256').ignore();
    }
    await trx('scan_files').insert({ scan_id: scanId, path: f.path, state: f.state, body_sha256: sha });
  }
}

/** The file `path` as scan `scanId` read it, or null when the scan stored none (archived before 006, or never read). */
export async function findScanFile(db: Knex, scanId: string, path: string): Promise<ScanFile | null> {
  const row: { state: ScanFileState; body: string | null } | undefined = await db('scan_files as f')
    .leftJoin('file_bodies as b', 'b.sha256', 'f.body_sha256')
    .select('f.state', 'b.body')
    .where({ 'f.scan_id': scanId, 'f.path': path })
    .first();
  if (!row) return null;
  return row.state === 'present' ? { path, state: 'present', body: row.body ?? '' } : { path, state: row.state };
}
