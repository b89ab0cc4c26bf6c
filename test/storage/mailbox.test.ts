// The mail cap's key: one mailbox however its address is spelt (src/storage/mailbox.ts), and
// migration 007 backfilling it on outbox rows written before it, on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mailboxOf } from '../../src/storage/mailbox.ts';
import * as m007 from '../../src/storage/migrations/007-mail-mailbox.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

const SCAN_ID = randomUUID();
const SAME_MAILBOX: Array<[string, string[]]> = [
  ['ada@example-store.com', ['ada@example-store.com', 'Ada@Example-Store.COM', 'ada+1@example-store.com', 'ada+ci+x@example-store.com', ' ada@example-store.com. ']],
  ['adalovelace@gmail.com', ['adalovelace@gmail.com', 'a.d.a.lovelace@gmail.com', 'Ada.Lovelace+news@googlemail.com', 'ADALOVELACE@GMAIL.COM']],
  ['ada@yahoo.com', ['ada@yahoo.com', 'ada-news@yahoo.com', 'Ada-Shop-2@Yahoo.com', 'ada+x@yahoo.com']],
  ['ada@yahoo.co.uk', ['ada-news@yahoo.co.uk']],
  ['ada@ymail.com', ['ada-ci@ymail.com']],
  ['x@xn--bcher-kva.de', ['x@bücher.de', 'X+tag@BÜCHER.de', 'x@xn--bcher-kva.de']],
];
const DIFFERENT: Array<[string, string]> = [
  ['a.da@example-store.com', 'ada@example-store.com'], // dots matter outside Gmail
  ['ada@example-store.com', 'ada@example-store.net'],
  ['ada@gmail.com', 'ada@gmail.co'],
  ['+tag@example-store.com', 'tag@example-store.com'], // a leading + is the whole local part
  ['ada-news@example-store.com', 'ada@example-store.com'], // "-" folds only on Yahoo's domains
  ['ada-news@yahoo.com', 'ada@yahoo.co.uk'],
  ['-ada@yahoo.com', 'ada@yahoo.com'], // a leading - is the whole local part
];

describe('mailboxOf', () => {
  test('spellings of one mailbox fold to one key', () => {
    for (const [key, spellings] of SAME_MAILBOX) for (const s of spellings) assert.equal(mailboxOf(s), key, s);
  });
  test('different mailboxes stay apart', () => {
    for (const [a, b] of DIFFERENT) assert.notEqual(mailboxOf(a), mailboxOf(b), `${a} / ${b}`);
  });
});

for (const name of databaseNames()) {
  describe(`migration 007 backfills the mailbox of existing outbox rows (${name})`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`rows written before it count by mailbox after it (${name})`, async () => {
      // Back to the schema before 007, rows as it wrote them, then 007 again.
      await m007.down(t.db);
      const addresses = ['Ada+1@Example-Store.com', 'a.d.a@googlemail.com', 'grace@example-store.com'];
      await t.db('scans').insert({ id: SCAN_ID, kind: 'site', domain: 'example-store.com', headline: 'open', score: 1, report: '{}', evidence: null, scanned_at: '2026-01-01T00:00:00.000Z', lead_name: 'A', lead_email: 'a@b.c' });
      for (const [i, to] of addresses.entries()) {
        await t.db('mail_outbox').insert({ id: `m-${i}`, scan_id: SCAN_ID, to_addr: to, subject: 's', text_body: 't', html_body: 'h', status: 'sent', attempts: 1, next_attempt_at: '2026-01-01T00:00:00.000Z', created_at: '2026-01-01T00:00:00.000Z' });
      }
      await m007.up(t.db);
      const rows: Array<{ to_addr: string; mailbox: string }> = await t.db('mail_outbox').select('to_addr', 'mailbox').orderBy('id');
      assert.deepEqual(rows, [
        { to_addr: 'Ada+1@Example-Store.com', mailbox: 'ada@example-store.com' },
        { to_addr: 'a.d.a@googlemail.com', mailbox: 'ada@gmail.com' },
        { to_addr: 'grace@example-store.com', mailbox: 'grace@example-store.com' },
      ]);
    });
  });
}
