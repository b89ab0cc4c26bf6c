import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { Mailer } from '../../src/mail/mailer.ts';
import { messageIdFor } from '../../src/mail/compose.ts';
import { fileTransport, smtpTransport } from '../../src/mail/transport.ts';
import { claimMail, listMail } from '../../src/storage/queries/mailOutbox.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { buildService } from './build.ts';
import { fakeScanner, silentLog } from './fixtures.ts';
import { SmtpSink } from './smtp-sink.ts';

const lead = { name: 'Grace Hopper', email: 'grace@mail-site.com' };
const FROM = 'agent-readiness <reports@agent-readiness.test>';
const BASE = 'http://agent-readiness.test';

describe('report mail through the outbox', () => {
  let t: TestDb;
  before(async () => { t = await openTestDb('sqlite'); });
  after(() => t.close());

  async function scanFor(domain: string): Promise<{ scanId: string; reportUrl: string }> {
    // Delivery, not the per-recipient cap (mail-cap.test.ts), is under test: one address, many scans.
    const svc = buildService({ db: t.db, scanner: fakeScanner(), baseUrl: BASE, perIp: { points: 1000, durationS: 60 }, mailPerRecipientPerDay: 1000 });
    const out = await svc.scan({ domain, lead, clientIp: '192.0.2.1' });
    return { scanId: out.body.scanId, reportUrl: out.body.reportUrl! };
  }

  test('SMTP down then up: the mail arrives exactly once, with link, domain, headline and score', async () => {
    const { scanId, reportUrl } = await scanFor('outage.mail-site.com');
    const port = await SmtpSink.freePort();
    const sink = new SmtpSink();
    let clock = Date.now();
    const mailer = new Mailer({
      db: t.db, transport: smtpTransport(`smtp://127.0.0.1:${port}`, 2000), from: FROM, baseUrl: BASE, log: silentLog,
      now: () => new Date(clock), backoffMs: () => 1000,
    });
    try {
      assert.deepEqual(await mailer.drainOnce(), { sent: 0, failed: 1 }, 'server down: the attempt fails');
      await sink.start(port);
      assert.deepEqual(await mailer.drainOnce(), { sent: 0, failed: 0 }, 'not due before the backoff');
      clock += 1001;
      assert.deepEqual(await mailer.drainOnce(), { sent: 1, failed: 0 });
      clock += 60_000;
      assert.deepEqual(await mailer.drainOnce(), { sent: 0, failed: 0 }, 'nothing is sent twice');
      const mine = sink.received.filter((m) => m.raw.includes('outage.mail-site.com'));
      assert.equal(mine.length, 1);
      const raw = mine[0]!.raw.replace(/=\r?\n/g, '');
      assert.ok(raw.includes(reportUrl));
      assert.match(raw, /partially-blocked/);
      assert.match(raw, /Score: 72/);
      assert.deepEqual(mine[0]!.to, ['grace@mail-site.com']);
      assert.equal(mine[0]!.messageId, messageIdFor(`report-${scanId}`, BASE));
      const [row] = await listMail(t.db, scanId);
      assert.equal(row!.status, 'sent');
      assert.equal(row!.attempts, 1);
    } finally {
      await mailer.stop();
      await sink.stop();
    }
  });

  test('a mailer crash between send and mark loses nothing; the resend keeps the Message-ID', async () => {
    const { scanId } = await scanFor('crash.mail-site.com');
    const sink = new SmtpSink();
    await sink.start(await SmtpSink.freePort());
    const transport = smtpTransport(`smtp://127.0.0.1:${sink.port}`, 2000);
    let clock = Date.now();
    try {
      // Mailer A claims and sends, then dies before marking the row.
      const [claimed] = (await claimMail(t.db, 'mailer-a', new Date(clock).toISOString(), new Date(clock + 120_000).toISOString(), 50)).filter((r) => r.scan_id === scanId);
      assert.ok(claimed);
      await transport.send({ id: claimed.id, messageId: messageIdFor(claimed.id, BASE), from: FROM, to: claimed.to_addr, subject: claimed.subject, text: claimed.text_body, html: claimed.html_body, date: new Date() });
      const b = new Mailer({ db: t.db, transport, from: FROM, baseUrl: BASE, log: silentLog, now: () => new Date(clock) });
      assert.equal((await b.drainOnce()).sent, 0, 'the lease still protects the row');
      clock += 121_000;
      assert.equal((await b.drainOnce()).sent, 1, 'after the lease the mail goes out again');
      const mine = sink.received.filter((m) => m.raw.includes('crash.mail-site.com'));
      assert.equal(mine.length, 2);
      assert.equal(new Set(mine.map((m) => m.messageId)).size, 1, 'same Message-ID: receivers can drop the duplicate');
      assert.equal((await listMail(t.db, scanId))[0]!.status, 'sent');
    } finally {
      transport.close();
      await sink.stop();
    }
  });

  test('three mailers draining together deliver every mail exactly once', async () => {
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push((await scanFor(`many-${i}.mail-site.com`)).scanId);
    const sink = new SmtpSink();
    await sink.start(await SmtpSink.freePort());
    const mailers = [0, 1, 2].map(() => new Mailer({ db: t.db, transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`, 2000), from: FROM, baseUrl: BASE, log: silentLog, batchSize: 4 }));
    try {
      for (let round = 0; round < 5; round++) await Promise.all(mailers.map((m) => m.drainOnce()));
      for (const id of ids) {
        assert.equal(sink.received.filter((m) => m.messageId === messageIdFor(`report-${id}`, BASE)).length, 1, `mail of ${id}`);
      }
    } finally {
      for (const m of mailers) await m.stop();
      await sink.stop();
    }
  });

  test('without SMTP_URL the mail is written once as an .eml file, even when resent', async () => {
    const { scanId, reportUrl } = await scanFor('file.mail-site.com');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-mail-'));
    const transport = fileTransport(dir);
    try {
      const m = new Mailer({ db: t.db, transport, from: FROM, baseUrl: BASE, log: silentLog });
      await m.drainOnce();
      const file = path.join(dir, `report-${scanId}.eml`);
      const text = fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '');
      assert.ok(text.includes(reportUrl));
      await transport.send({ id: `report-${scanId}`, messageId: '<x@y>', from: FROM, to: 'a@b.com', subject: 's', text: 't', html: 'h', date: new Date() });
      assert.equal(fs.readdirSync(dir).filter((f) => f.startsWith(`report-${scanId}`)).length, 1);
    } finally {
      transport.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an internationalised domain reaches the inbox as its owner writes it, its DNS spelling beside it, in subject and body', async () => {
    const { reportUrl } = await scanFor('xn--bcher-kva.mail-site.com');
    const sink = new SmtpSink();
    await sink.start(await SmtpSink.freePort());
    const mailer = new Mailer({ db: t.db, transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`, 2000), from: FROM, baseUrl: BASE, log: silentLog });
    try {
      await mailer.drainOnce();
      const mine = sink.received.filter((m) => m.raw.includes(reportUrl.split('/').pop()!));
      assert.equal(mine.length, 1);
      // Read as a mail client reads it: the encoded subject and bodies decoded by mailparser.
      const mail = await simpleParser(mine[0]!.raw);
      const both = 'bücher.mail-site.com (xn--bcher-kva.mail-site.com)';
      assert.match(mail.subject ?? '', new RegExp(`^Agent-readiness report for ${both.replace(/[.()]/g, '\\$&')}: partially-blocked, score `));
      assert.ok(mail.text?.includes(`Your agent-readiness scan of ${both} is archived.`), mail.text);
      assert.ok(typeof mail.html === 'string' && mail.html.includes(`<strong>${both}</strong>`), String(mail.html));
    } finally {
      await mailer.stop();
      await sink.stop();
    }
  });

  test('a mail that keeps failing is given up after maxAttempts, and stays in the outbox', async () => {
    const { scanId } = await scanFor('dead.mail-site.com');
    let clock = Date.now();
    const failing = { send: async () => { throw new Error('550 mailbox unavailable'); }, close: () => undefined };
    const m = new Mailer({ db: t.db, transport: failing, from: FROM, baseUrl: BASE, log: silentLog, now: () => new Date(clock), maxAttempts: 3, backoffMs: () => 10 });
    for (let i = 0; i < 5; i++) { await m.drainOnce(); clock += 11; }
    const [row] = await listMail(t.db, scanId);
    assert.equal(row!.status, 'dead');
    assert.equal(row!.attempts, 3);
    assert.match(row!.last_error!, /550/);
  });
});
