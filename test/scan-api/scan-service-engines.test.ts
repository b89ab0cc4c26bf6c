// The archive path of the scan service on every database engine the service supports,
// including an injected fault inside the database itself (a trigger refusing the insert).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { attachCliVantage } from '../../src/scans/cli-vantage.ts';
import { loadArchivedReport } from '../../src/scans/archive.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { AppError } from '../../src/errors.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from '../storage/databases.ts';
import { buildService } from './build.ts';
import { fakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@engine-site.com' };

async function injectArchiveFault(t: TestDb): Promise<void> {
  if (t.name === 'sqlite') {
    await t.db.raw("CREATE TRIGGER refuse_scans BEFORE INSERT ON scans BEGIN SELECT RAISE(ABORT, 'injected archive fault'); END");
  } else {
    await t.db.raw("CREATE FUNCTION refuse_scans() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected archive fault'; END $$ LANGUAGE plpgsql");
    await t.db.raw('CREATE TRIGGER refuse_scans BEFORE INSERT ON scans FOR EACH ROW EXECUTE FUNCTION refuse_scans()');
  }
}

for (const name of databaseNames()) {
  describe(`scan archive on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(() => t.close());

    test(`${name}: archived report, mail row and one concurrent-safe CLI attach`, async () => {
      const svc = buildService({ db: t.db, scanner: fakeScanner() });
      const out = await svc.scan({ domain: 'engine-site.com', lead, clientIp: '192.0.2.1' });
      const loaded = await loadArchivedReport(t.db, 'http://localhost:8080', out.body.scanId);
      assert.equal(loaded?.report.reportUrl, out.body.reportUrl);
      assert.equal((await listMail(t.db, out.body.scanId)).length, 1);
      const deps = { db: t.db, now: () => new Date(), baseUrl: 'http://localhost:8080' };
      const body = { domain: 'engine-site.com', uploadToken: out.body.cliUploadToken, observations: [{ key: 'control:browser', status: 200 }] };
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => attachCliVantage(deps, out.body.scanId, body)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as AppError).status, 409);
    });

    test(`${name}: an archive fault inside the database still serves the scan, unarchived`, async () => {
      const f = await openTestDb(name);
      try {
        await injectArchiveFault(f);
        const out = await buildService({ db: f.db, scanner: fakeScanner() }).scan({ domain: 'fault-engine-site.com', lead, clientIp: '192.0.2.1' });
        assert.equal(out.body.reportUrl, undefined);
        assert.equal(out.body.cliUploadToken, undefined);
        assert.equal((await listMail(f.db)).length, 0, 'the mail row rolled back with the report');
      } finally {
        await f.close();
      }
    });
  });
}
