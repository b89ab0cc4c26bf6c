// Strangers type the address we mail and the name we greet. At most MAIL_PER_RECIPIENT_PER_DAY
// report mails reach one address in any 24 hours (counted in storage, so every instance
// shares the count), further scans still succeed and say the mail was not sent, and a name
// carrying a link or markup never reaches the inbox. Delivered through the real SMTP sink.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Mailer } from '../../src/mail/mailer.ts';
import { greetableName } from '../../src/mail/compose.ts';
import { smtpTransport } from '../../src/mail/transport.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from '../storage/databases.ts';
import { buildService } from './build.ts';
import { fakeScanner, silentLog } from './fixtures.ts';
import { SmtpSink } from './smtp-sink.ts';

const BASE = 'http://agent-readiness.test';
const DAY = 24 * 60 * 60 * 1000;

for (const name of databaseNames()) {
  describe(`report mail cap per recipient (${name})`, { skip: skipFor(name) || undefined }, () => {
    let t: TestDb;
    let clock = Date.parse('2026-11-23T08:00:00Z');
    before(async () => { t = await openTestDb(name); });
    after(() => t?.close());

    const service = (cap = 3) => buildService({
      db: t.db, scanner: fakeScanner(), baseUrl: BASE, now: () => new Date(clock),
      perDomain: { points: 1000, durationS: 60 }, perIp: { points: 1000, durationS: 60 }, mailPerRecipientPerDay: cap,
    });
    const scan = (svc: ReturnType<typeof service>, n: number, email: string) =>
      svc.scan({ domain: `cap${n}.mail-cap.com`, lead: { name: 'Cap Tester', email }, clientIp: '192.0.2.7', fresh: true });

    test(`the fourth scan in a day for one address (any letter case) answers 200 without a mail (${name})`, async () => {
      const svc = service();
      const emails = ['owner@mail-cap.com', 'Owner@Mail-Cap.com', 'OWNER@mail-cap.com', 'owner@MAIL-CAP.com'];
      const out = [];
      for (const [i, email] of emails.entries()) {
        clock += 60_000;
        out.push(await scan(svc, i, email));
      }
      assert.deepEqual(out.map((o) => o.body.mail?.status), ['queued', 'queued', 'queued', 'not-sent']);
      assert.ok(out[3]!.body.reportUrl, 'the capped scan is still archived at its link');
      assert.match(out[3]!.body.mail!.note, /3 report mails in the last 24 hours/);
      const mails = (await listMail(t.db)).filter((m) => m.to_addr.toLowerCase() === 'owner@mail-cap.com');
      assert.equal(mails.length, 3);
    });

    test(`an address may be mailed again once 24 hours have passed since its earlier mails (${name})`, async () => {
      clock += DAY;
      const out = await scan(service(), 10, 'owner@mail-cap.com');
      assert.equal(out.body.mail?.status, 'queued');
    });

    test(`other addresses keep their own budget while one is capped (${name})`, async () => {
      const out = await scan(service(), 11, 'someone-else@mail-cap.com');
      assert.equal(out.body.mail?.status, 'queued');
    });

    test(`concurrent scans for one address queue no more than the cap (${name})`, async () => {
      clock += 2 * DAY;
      const svc = service(2);
      const out = await Promise.all(Array.from({ length: 6 }, (_, i) => scan(svc, 100 + i, 'racer@mail-cap.com')));
      assert.equal(out.filter((o) => o.body.mail?.status === 'queued').length, 2);
      assert.equal(out.filter((o) => o.body.mail?.status === 'not-sent').length, 4);
    });

    // One mailbox, one budget: sub-addresses and Gmail's dotted spellings reach one inbox, so
    // they share its daily cap. Delivered through the real SMTP sink, each to the address typed.
    const SPELLINGS: Array<[string, string[]]> = [
      ['sub-addresses (+tag)', ['ada+1@mail-cap.com', 'ada+2@mail-cap.com', 'Ada+ci@Mail-Cap.com', 'ada+4@mail-cap.com']],
      ['Gmail dots and googlemail.com', ['a.d.a.lovelace@gmail.com', 'adalovelace@googlemail.com', 'Ada.Love.Lace+ci@gmail.com', 'a.dalovelace@GMAIL.com']],
    ];
    for (const [what, emails] of SPELLINGS) {
      test(`${what}: the fourth mail to one mailbox in a day is not sent; the three sent go to the addresses as typed (${name})`, async () => {
        clock += 5 * DAY;
        // An outbox of its own, so only these scans' mails are drained.
        const own = await openTestDb(name);
        const sink = new SmtpSink();
        await sink.start(await SmtpSink.freePort());
        const mailer = new Mailer({ db: own.db, transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`, 5000), from: 'agent-readiness <r@agent-readiness.test>', baseUrl: BASE, log: silentLog, now: () => new Date(clock) });
        try {
          const svc = buildService({
            db: own.db, scanner: fakeScanner(), baseUrl: BASE, now: () => new Date(clock),
            perDomain: { points: 1000, durationS: 60 }, perIp: { points: 1000, durationS: 60 }, mailPerRecipientPerDay: 3,
          });
          const out = [];
          for (const [i, email] of emails.entries()) {
            clock += 60_000;
            out.push(await scan(svc, 300 + i, email));
          }
          assert.deepEqual(out.map((o) => o.body.mail?.status), ['queued', 'queued', 'queued', 'not-sent']);
          assert.deepEqual(await mailer.drainOnce(), { sent: 3, failed: 0 });
          // As typed: the local part untouched (SMTP itself lower-cases the domain of the envelope).
          const typed = emails.slice(0, 3);
          assert.deepEqual((await listMail(own.db)).map((m) => m.to_addr).sort(), [...typed].sort());
          assert.deepEqual(sink.received.map((m) => m.to), typed.map((e) => [e.replace(/@.*/, (d) => d.toLowerCase())]));
          // Another mailbox on the same domain keeps its own budget.
          assert.equal((await scan(svc, 320, emails[0]!.replace(/^[^@+]*/, 'grace'))).body.mail?.status, 'queued');
        } finally {
          await mailer.stop();
          await sink.stop();
          await own.close();
        }
      });
    }

    test(`MAIL_PER_RECIPIENT_PER_DAY=0 sends no report mail at all (${name})`, async () => {
      clock += 3 * DAY;
      const out = await scan(service(0), 200, 'zero@mail-cap.com');
      assert.equal(out.body.mail?.status, 'not-sent');
      assert.equal((await listMail(t.db)).filter((m) => m.to_addr === 'zero@mail-cap.com').length, 0);
    });
  });
}

describe('the lead name in the report mail', () => {
  test('names with a URL, a domain, an address or markup are not echoed; plain names are', () => {
    const cases: Array<[string, string]> = [
      ['Ada Lovelace', 'Ada Lovelace'],
      ['José Ñúñez-O\'Brien', 'José Ñúñez-O\'Brien'],
      ['Dr. Ada', 'Dr. Ada'],
      ['  Ada   Lovelace ', 'Ada Lovelace'],
      ['Win a prize at https://evil.example', ''],
      ['visit www.evil.example now', ''],
      ['cheap-pills.shop', ''],
      ['Ada <script>alert(1)</script>', ''],
      ['<a href=x>click</a>', ''],
      ['Ada &lt;b&gt;', ''],
      ['mail me: x@evil.example', ''],
      ['[click](http://x)', ''],
    ];
    for (const [input, expected] of cases) assert.equal(greetableName(input), expected, input);
  });

  test('a lead name carrying a link arrives through SMTP as a plain "Hello," with no trace of the link', async () => {
    const t = await openTestDb('sqlite');
    const sink = new SmtpSink();
    const port = await SmtpSink.freePort();
    await sink.start(port);
    const mailer = new Mailer({ db: t.db, transport: smtpTransport(`smtp://127.0.0.1:${port}`, 5000), from: 'agent-readiness <r@agent-readiness.test>', baseUrl: BASE, log: silentLog });
    try {
      const svc = buildService({ db: t.db, scanner: fakeScanner(), baseUrl: BASE });
      const hostile = 'Free money at https://phish.example/login <b>now</b>';
      await svc.scan({ domain: 'greet.mail-cap.com', lead: { name: hostile, email: 'victim@mail-cap.com' }, clientIp: '192.0.2.8' });
      await svc.scan({ domain: 'greet2.mail-cap.com', lead: { name: 'Grace Hopper', email: 'grace@mail-cap.com' }, clientIp: '192.0.2.8' });
      assert.deepEqual(await mailer.drainOnce(), { sent: 2, failed: 0 });
      const raw = (to: string) => sink.received.find((m) => m.to.includes(to))!.raw.replace(/=\r?\n/g, '');
      assert.doesNotMatch(raw('victim@mail-cap.com'), /phish\.example|<b>|Free money/);
      assert.match(raw('victim@mail-cap.com'), /Hello,/);
      assert.match(raw('grace@mail-cap.com'), /Hello Grace Hopper,/);
    } finally {
      await mailer.stop();
      await sink.stop();
      await t.close();
    }
  });
});
