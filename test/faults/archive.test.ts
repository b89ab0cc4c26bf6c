// The archive write fails mid-transaction: the caller still gets the measurement (200),
// without reportUrl or upload token, and nothing of the scan is left behind (no report
// row, no vendors, no mail), so no link can ever point at half a report.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { conforms } from '../helpers/contract.ts';
import { hostileApp, type HostileApp } from '../hostile/lib/hostile-app.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';

const lead = { name: 'Fault Tester', email: 'fault@archive-fault.com' };

describe('fault: the archive fails mid-write', () => {
  let t: HostileApp;
  before(async () => {
    t = await hostileApp();
  });
  after(() => t.close());

  const scan = async (domain: string) => {
    const res = await rawRequest(t.url, { method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead, fresh: true }) });
    conforms(res);
    return { res, body: JSON.parse(res.text) as Record<string, unknown> };
  };
  const counts = async () => ({
    scans: Number((await t.ctx.db('scans').count({ n: '*' }).first())?.n),
    vendors: Number((await t.ctx.db('scan_vendors').count({ n: '*' }).first())?.n),
    mail: Number((await t.ctx.db('mail_outbox').count({ n: '*' }).first())?.n),
  });

  for (const [table, stage] of [['scan_vendors', 'after the report row, at the vendors'], ['mail_outbox', 'after the report row and vendors, at the outbox mail']] as const) {
    test(`archive failing ${stage}: 200 without reportUrl or token, and no trace of the scan`, async () => {
      const before = await counts();
      await t.ctx.db.raw(`CREATE TRIGGER inject_fault BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected fault: disk full'); END;`);
      try {
        const { res, body } = await scan(`archive-fault-${table.replace("_", "-")}.com`);
        assert.equal(res.status, 200, res.text);
        assert.equal(body.reportUrl, undefined);
        assert.equal(body.cliUploadToken, undefined);
        assert.equal(body.outreachEligible, false);
        assert.deepEqual(await counts(), before, 'a half-written report was left behind');
        const page = await rawRequest(t.url, { method: 'GET', path: `/r/${String(body.scanId)}`, headers: { Accept: 'application/json' } });
        conforms(page);
        assert.equal(page.status, 404);
        const badge = await rawRequest(t.url, { method: 'GET', path: `/badge/archive-fault-${table.replace("_", "-")}.com.svg` });
        conforms(badge);
        assert.equal(badge.status, 404);
      } finally {
        await t.ctx.db.raw('DROP TRIGGER inject_fault');
      }
    });
  }

  test('once the archive works again the next scan is archived with its link, token and mail', async () => {
    const before = await counts();
    const { res, body } = await scan('archive-fault-recovered.com');
    assert.equal(res.status, 200);
    assert.match(String(body.reportUrl), /\/r\//);
    assert.ok(body.cliUploadToken);
    const after = await counts();
    assert.equal(after.scans, before.scans + 1);
    assert.equal(after.mail, before.mail + 1);
  });
});
