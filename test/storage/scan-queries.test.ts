import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { archiveScan, mailsSince, ReportShapeError, type ScanRow } from '../../src/storage/queries/archiveScan.ts';
import { MAILBOX_INDEX } from '../../src/storage/migrations/007-mail-mailbox.ts';
import { findLatestSiteScan, findScan } from '../../src/storage/queries/findScan.ts';
import { findCliVantage, insertCliVantage } from '../../src/storage/queries/cliVantage.ts';
import { addExcludedDomain, isExcludedInTable } from '../../src/storage/queries/excludedDomains.ts';
import { claimMail, listMail, markMailFailed, markMailSent } from '../../src/storage/queries/mailOutbox.ts';
import { countStats } from '../../src/storage/queries/countStats.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';
import { reportFor } from './reports.ts';

function row(over: Partial<ScanRow> = {}): ScanRow {
  const r: ScanRow = {
    id: randomUUID(), kind: 'site', domain: 'shop.example-store.com', headline: 'open', score: 80,
    report: '{}', evidence: '[]', scanned_at: '2026-01-01T00:00:00.000Z',
    lead_name: 'Ada', lead_email: 'ada@example-store.com', lead_phone: null, lead_role: null, upload_token_hash: null, ...over,
  };
  return over.report ? r : { ...r, report: reportFor(r) };
}

for (const name of databaseNames()) {
  describe(`storage queries on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t.close(); });

    test(`${name}: archiveScan writes report, vendors and outbox mail in one transaction`, async () => {
      const r = row();
      await archiveScan(t.db, r, ['Cloudflare', 'Cloudflare', 'Akamai'], { id: `m-${r.id}`, to_addr: 'ada@example-store.com', subject: 's', text_body: 't', html_body: 'h' });
      assert.equal((await findScan(t.db, r.id))?.domain, 'shop.example-store.com');
      const mails = await listMail(t.db, r.id);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.status, 'pending');
    });

    test(`${name}: archiveScan refuses a report that breaks its contract schema, and writes nothing`, async () => {
      const cases: Array<[string, (report: Record<string, unknown>) => void]> = [
        ['a profile outside the Profile enum', (r) => { r.profile = 'anything'; }],
        ['a missing headline', (r) => { delete r.headline; }],
        ['a field the contract does not have', (r) => { r.leadEmail = 'ada@example-store.com'; }],
      ];
      for (const [what, spoil] of cases) {
        const r = row();
        const report = JSON.parse(r.report) as Record<string, unknown>;
        spoil(report);
        const mail = { id: `m-${r.id}`, to_addr: 'ada@example-store.com', subject: 's', text_body: 't', html_body: 'h' };
        await assert.rejects(archiveScan(t.db, { ...r, report: JSON.stringify(report) }, ['Cloudflare'], mail), (err: unknown) => err instanceof ReportShapeError && /not a valid ScanReport/.test(err.message), what);
        assert.equal(await findScan(t.db, r.id), null, `${what}: no row`);
        assert.deepEqual(await listMail(t.db, r.id), [], `${what}: no mail`);
      }
      const mcp = row({ kind: 'mcp-server' });
      await assert.rejects(archiveScan(t.db, { ...mcp, report: JSON.stringify({ ...JSON.parse(mcp.report), kind: 'site' }) }, []), /not a valid McpServerReport/);
    });

    test(`${name}: the daily mail cap's count reads one mailbox's range of an index, never the whole outbox`, async () => {
      const { sql, bindings } = mailsSince(t.db, 'ada@example-store.com', '2026-01-01T00:00:00.000Z').toSQL();
      const plan = await t.db.transaction(async (trx) => {
        if (name === 'sqlite') return JSON.stringify(await trx.raw(`explain query plan ${sql}`, bindings));
        // A small table is cheaper to read whole; forbid that to see whether an index can serve the query at all.
        await trx.raw('set local enable_seqscan = off');
        return JSON.stringify((await trx.raw(`explain ${sql}`, bindings)).rows);
      });
      assert.match(plan, new RegExp(MAILBOX_INDEX), plan);
      assert.doesNotMatch(plan, /SCAN mail_outbox"|Seq Scan/, plan);
    });

    test(`${name}: a failing outbox insert rolls the report back`, async () => {
      const r = row();
      const mail = { id: 'dup-mail', to_addr: 'a@b.com', subject: 's', text_body: 't', html_body: 'h' };
      await archiveScan(t.db, row(), [], mail);
      await assert.rejects(archiveScan(t.db, r, [], mail));
      assert.equal(await findScan(t.db, r.id), null);
    });

    test(`${name}: findLatestSiteScan returns the newest site scan of a domain`, async () => {
      await archiveScan(t.db, row({ domain: 'latest.example-store.com', scanned_at: '2026-01-01T00:00:00.000Z', score: 10 }), []);
      await archiveScan(t.db, row({ domain: 'latest.example-store.com', scanned_at: '2026-01-02T00:00:00.000Z', score: 20 }), []);
      assert.equal((await findLatestSiteScan(t.db, 'latest.example-store.com'))?.score, 20);
      assert.equal(await findLatestSiteScan(t.db, 'never.example-store.com'), null);
    });

    test(`${name}: concurrent cli-vantage inserts attach exactly once`, async () => {
      const r = row();
      await archiveScan(t.db, r, []);
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => insertCliVantage(t.db, r.id, `{"n":${i}}`, '2026-01-01T00:00:01.000Z')));
      assert.equal(results.filter((x) => x === 'inserted').length, 1);
      assert.match((await findCliVantage(t.db, r.id))!, /"n":/);
    });

    test(`${name}: an excluded domain also excludes its subdomains`, async () => {
      await addExcludedDomain(t.db, 'owner-asked.com', 'request', '2026-01-01T00:00:00.000Z');
      assert.equal(await isExcludedInTable(t.db, 'owner-asked.com'), true);
      assert.equal(await isExcludedInTable(t.db, 'www.shop.owner-asked.com'), true);
      assert.equal(await isExcludedInTable(t.db, 'not-owner-asked.com'), false);
    });

    test(`${name}: mail claims are exclusive and retries wait for next_attempt_at`, async () => {
      const r = row();
      await archiveScan(t.db, r, [], { id: `claim-${r.id}`, to_addr: 'x@y.com', subject: 's', text_body: 't', html_body: 'h' });
      const now = '2026-01-01T00:00:00.000Z';
      const [a, b] = await Promise.all([
        claimMail(t.db, 'A', now, '2026-01-01T00:01:00.000Z', 50),
        claimMail(t.db, 'B', now, '2026-01-01T00:01:00.000Z', 50),
      ]);
      const ids = [...a, ...b].map((m) => m.id).filter((id) => id === `claim-${r.id}`);
      assert.equal(ids.length, 1, 'exactly one mailer owns the row');
      const owner = a.some((m) => m.id === `claim-${r.id}`) ? 'A' : 'B';
      await markMailFailed(t.db, `claim-${r.id}`, owner, 'smtp down', '2026-01-01T00:05:00.000Z', false);
      const early = await claimMail(t.db, 'C', '2026-01-01T00:02:00.000Z', '2026-01-01T00:03:00.000Z', 50);
      assert.equal(early.some((m) => m.id === `claim-${r.id}`), false);
      const later = await claimMail(t.db, 'C', '2026-01-01T00:06:00.000Z', '2026-01-01T00:07:00.000Z', 50);
      const mine = later.find((m) => m.id === `claim-${r.id}`);
      assert.equal(mine?.attempts, 1);
      await markMailSent(t.db, `claim-${r.id}`, 'C', '2026-01-01T00:06:01.000Z');
      assert.equal((await listMail(t.db, r.id))[0]!.status, 'sent');
    });

    test(`${name}: countStats groups archived site scans by headline, band and vendor`, async () => {
      const fresh = await openTestDb(name);
      try {
        await archiveScan(fresh.db, row({ headline: 'open', score: 95 }), ['Cloudflare']);
        await archiveScan(fresh.db, row({ headline: 'open', score: null }), ['Cloudflare', 'Fastly']);
        await archiveScan(fresh.db, row({ headline: 'agent-hostile', score: 40 }), []);
        await archiveScan(fresh.db, row({ kind: 'mcp-server', headline: 'ok', score: null }), []);
        const s = await countStats(fresh.db);
        assert.deepEqual(s, {
          total: 3,
          byHeadline: { 'agent-hostile': 1, open: 2 },
          byScoreBand: { '0-49': 1, '90-100': 1, none: 1 },
          byVendor: { Cloudflare: 2, Fastly: 1 },
        });
      } finally {
        await fresh.close();
      }
    });
  });
}
