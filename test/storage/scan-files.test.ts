// The files a scan read (migration 008), on SQLite and PostgreSQL: written with the archive in
// one transaction, one body per content, read back by scan and path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { archiveScan, type ScanRow } from '../../src/storage/queries/archiveScan.ts';
import { findScanFile } from '../../src/storage/queries/scanFiles.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';
import { reportFor } from './reports.ts';

function row(over: Partial<ScanRow> = {}): ScanRow {
  const r: ScanRow = {
    id: randomUUID(), kind: 'site', domain: 'files.example-store.com', headline: 'open', score: 80, report: '{}', evidence: '[]',
    scanned_at: '2026-01-01T00:00:00.000Z', lead_name: 'Ada', lead_email: 'ada@example-store.com', lead_phone: null, lead_role: null, upload_token_hash: null, ...over,
  };
  return { ...r, report: reportFor(r) };
}

for (const name of databaseNames()) {
  describe(`scan files on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: each scan reads back its robots.txt; equal bodies are stored once, even archived at once`, async () => {
      const body = `User-agent: *\nDisallow: /${randomUUID()}\n`;
      const rows = [row(), row(), row()];
      await Promise.all(rows.map((r) => archiveScan(t.db, r, [], undefined, undefined, [{ path: '/robots.txt', state: 'present', body }])));
      for (const r of rows) assert.deepEqual(await findScanFile(t.db, r.id, '/robots.txt'), { path: '/robots.txt', state: 'present', body });
      const counted = await t.db('file_bodies').where({ body }).count({ n: '*' });
      assert.equal(Number(counted[0]?.n), 1);
    });

    test(`${name}: absent and unknown files keep no body; a scan that kept none reads null`, async () => {
      const absent = row();
      const unknown = row();
      const none = row();
      await archiveScan(t.db, absent, [], undefined, undefined, [{ path: '/robots.txt', state: 'absent' }]);
      await archiveScan(t.db, unknown, [], undefined, undefined, [{ path: '/robots.txt', state: 'unknown' }]);
      await archiveScan(t.db, none, []);
      assert.deepEqual(await findScanFile(t.db, absent.id, '/robots.txt'), { path: '/robots.txt', state: 'absent' });
      assert.deepEqual(await findScanFile(t.db, unknown.id, '/robots.txt'), { path: '/robots.txt', state: 'unknown' });
      assert.equal(await findScanFile(t.db, none.id, '/robots.txt'), null);
    });

    test(`${name}: a failed file write keeps neither the scan nor its files (one transaction)`, async () => {
      const r = row();
      const twice = [{ path: '/robots.txt', state: 'present' as const, body: 'a' }, { path: '/robots.txt', state: 'absent' as const }];
      await assert.rejects(archiveScan(t.db, r, [], undefined, undefined, twice));
      assert.equal(await t.db('scans').where({ id: r.id }).first(), undefined);
      assert.equal(await findScanFile(t.db, r.id, '/robots.txt'), null);
    });
  });
}
