// The history on a report page: a domain's earlier site scans only, oldest first, without ids.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { archiveScan, type ScanRow } from '../../src/storage/queries/archiveScan.ts';
import { findEarlierSiteScans } from '../../src/storage/queries/domainHistory.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';
import { reportFor } from './reports.ts';

function row(over: Partial<ScanRow> = {}): ScanRow {
  const r: ScanRow = {
    id: randomUUID(), kind: 'site', domain: 'history.example-store.com', headline: 'open', score: 80,
    report: '{}', evidence: '[]', scanned_at: '2026-01-01T00:00:00.000Z',
    lead_name: 'Ada', lead_email: 'ada@example-store.com', lead_phone: null, lead_role: null, upload_token_hash: null, ...over,
  };
  return over.report ? r : { ...r, report: reportFor(r) };
}

for (const name of databaseNames()) {
  describe(`domain history on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t.close(); });

    test(`${name}: earlier site scans of the same domain only, oldest first, capped, without ids`, async () => {
      const domain = `h-${randomUUID().slice(0, 8)}.example-store.com`;
      const at = (d: number) => `2026-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;
      for (let d = 1; d <= 6; d++) await archiveScan(t.db, row({ domain, scanned_at: at(d), score: d * 10, headline: d % 2 ? 'open' : 'partially-blocked' }), []);
      const current = row({ domain, scanned_at: at(7), score: 99 });
      await archiveScan(t.db, current, []);
      await archiveScan(t.db, row({ domain, scanned_at: at(8), score: 1 }), []); // later: not history of `current`
      await archiveScan(t.db, row({ domain: `other-${domain}`, scanned_at: at(3) }), []); // another domain
      await archiveScan(t.db, row({ domain, kind: 'mcp-server', scanned_at: at(2) }), []); // not a site scan
      await archiveScan(t.db, row({ domain, scanned_at: at(4), score: null, headline: 'unknown' }), []);

      const history = await findEarlierSiteScans(t.db, domain, { scannedAt: current.scanned_at, id: current.id }, 5);
      assert.deepEqual(history.map((h) => h.scannedAt), [at(3), at(4), at(4), at(5), at(6)].sort());
      assert.deepEqual(history.map((h) => Object.keys(h).sort()), history.map(() => ['headline', 'scannedAt', 'score']));
      assert.ok(history.some((h) => h.score === null && h.headline === 'unknown'));
      assert.equal(history.at(-1)?.score, 60);
    });

    test(`${name}: a scan archived in the same millisecond counts as earlier only when its id sorts first`, async () => {
      const domain = `tie-${randomUUID().slice(0, 8)}.example-store.com`;
      const when = '2026-02-01T00:00:00.000Z';
      const a = row({ domain, scanned_at: when, id: '00000000-0000-4000-8000-000000000001', score: 1 });
      const b = row({ domain, scanned_at: when, id: '00000000-0000-4000-8000-000000000002', score: 2 });
      await archiveScan(t.db, a, []);
      await archiveScan(t.db, b, []);
      assert.deepEqual((await findEarlierSiteScans(t.db, domain, { scannedAt: when, id: b.id }, 10)).map((h) => h.score), [1]);
      assert.deepEqual(await findEarlierSiteScans(t.db, domain, { scannedAt: when, id: a.id }, 10), []);
    });
  });
}
