// Two limits a run meets, on real storage (SQLite, and PostgreSQL when TEST_DATABASE_URL is
// set) with the real watch runner on the embedded job engine (WATCH_INTERVAL_S=2), the real
// key budget and the real capped outbox; only the scan engine is a fake:
//   - a key's watch whose key has no scan left that UTC day: the run is `skipped`, spends
//     nothing and scans nothing, and the next period (the next day) runs and is paid for;
//   - the per-recipient mail cap: an alert mail beyond it is not sent, and the run records
//     `alertMail: capped` (a watch under the cap records `queued`); the webhook still goes.
import { createDatabase } from '../helpers/pg-database.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import knex from 'knex';
import { pino } from 'pino';
import request from 'supertest';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import type { ApiKeys } from '../../src/keys/service.ts';
import { usedOn } from '../../src/storage/queries/apiKeys.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import type { RunRow } from '../../src/storage/queries/watches.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { cannedReport, fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { postgresSkip } from '../storage/databases.ts';
import { recordingDeliveries, until, type RecordingDeliveries } from './fakes.ts';

const DAY_MS = 86_400_000;
const PG = process.env.TEST_DATABASE_URL;

/** The service's database: SQLite in memory, or a fresh PostgreSQL database (its job queue in memory, not under ./data). */
async function storage(name: 'sqlite' | 'postgres'): Promise<{ env: Record<string, string>; jobs?: EmbeddedJobEngine; drop(): Promise<void> }> {
  if (name === 'sqlite') return { env: {}, drop: async () => undefined };
  const db = `watch_limits_${process.pid}_${randomUUID().slice(0, 8)}`;
  const url = new URL(await createDatabase(PG!, db));
  return {
    env: { DATABASE_URL: url.toString() },
    jobs: new EmbeddedJobEngine({ file: ':memory:', log: pino({ level: 'silent' }) }),
    async drop() {
      const a = knex({ client: 'pg', connection: PG! });
      await a.raw(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await a.destroy();
    },
  };
}

for (const name of ['sqlite', 'postgres'] as const) {
  describe(`a watch's run meets its key's day and the mail cap (${name})`, { skip: name === 'postgres' ? postgresSkip : false }, () => {
    let t: TestApp;
    let drop: () => Promise<void>;
    let deliveries: RecordingDeliveries;
    // The service's clock runs at real speed from 10:00 UTC; `offset` moves it a day on.
    let offset = Date.parse('2026-03-10T10:00:00.000Z') - Date.now();
    const scanner = fakeScanner({
      // cap-*.watch-limits.com: the first scan is partially-blocked, every later one agent-hostile (an alert).
      make: (domain) => cannedReport(domain, domain.startsWith('cap') && scanner.calls.filter((c) => c === domain).length > 1 ? { headline: 'agent-hostile' } : {}),
    });
    before(async () => {
      const s = await storage(name);
      drop = s.drop;
      deliveries = recordingDeliveries();
      t = await testApp({
        LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '2', MAIL_PER_RECIPIENT_PER_DAY: '1', COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '30/60', ...s.env,
      }, {}, {
        scanner, scans: { resolve: fakeResolver() }, deliveries, ...(s.jobs ? { jobs: s.jobs } : {}),
      });
      t.ctx.now = () => new Date(Date.now() + offset);
    });
    after(async () => {
      await t?.close();
      await drop?.();
    });

    const runs = async (watchId: string) => t.ctx.db<RunRow>('watch_runs').where({ watch_id: watchId }).orderBy('period');
    const scansOf = (domain: string) => scanner.calls.filter((c) => c === domain).length;

    test(`${name}: no scan left that day: the run is skipped, spends and scans nothing; the next day's period runs and is paid`, { timeout: 120_000 }, async () => {
      const { keyId, key } = await t.services.keys.create('Two a day', 2);
      const day1 = t.ctx.now().toISOString().slice(0, 10);
      const made = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`)
        .send({ domain: 'keyed.watch-limits.com', lead: { name: 'Ada', email: 'ada@watch-limits.com' }, every: 'day', notify: { email: false, webhookUrl: 'https://hooks.watch-limits.com/in' } }).expect(202).expect(conforms);
      await t.services.keys.consume(keyId, 1); // the partner's own scan takes the day's last one
      // The day ends the moment the key is refused, so the period after the refusal falls on the next UTC day.
      const keys = t.services.keys as ApiKeys;
      const consume = keys.consume.bind(keys);
      let refusals = 0;
      keys.consume = async (id, n) => {
        try {
          return await consume(id, n);
        } catch (err) {
          if (refusals++ === 0) offset += DAY_MS;
          throw err;
        }
      };
      const id = made.body.watchId as string;
      await until(async () => (await runs(id)).some((r) => r.period > 1 && r.state === 'done'), 'a run after the skipped one');
      await request(t.app).delete(`/watches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
      const all = await runs(id);
      const skipped = all.filter((r) => r.state === 'skipped');
      assert.equal(refusals, 1, 'the key was refused once');
      assert.deepEqual(skipped.map((r) => [r.period, r.error, Boolean(r.charged), r.scan_id]), [[1, 'The key had no scan left that day.', false, null]]);
      assert.deepEqual([all[0]!.period, all[0]!.state], [0, 'done']);
      const later = all.find((r) => r.period > 1 && r.state === 'done')!;
      assert.ok(later.scan_id && Boolean(later.charged), 'the next day\'s run scanned and was paid for');
      assert.equal(await usedOn(t.ctx.db, keyId, day1), 2, 'the skipped run spent nothing on the day it was refused (creation 1 + the partner 1)');
      const day2 = new Date(Date.parse(`${day1}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
      assert.ok(await usedOn(t.ctx.db, keyId, day2) >= 1, 'the next day paid for its run');
      const done = all.filter((r) => r.state === 'done').length;
      assert.equal(scansOf('keyed.watch-limits.com'), done, 'one scan per done run, none for the skipped one');
      const shown = await request(t.app).get(`/watches/${id}`).set('Authorization', `Bearer ${key}`).set('Accept', 'application/json').expect(200).expect(conforms);
      assert.equal(shown.body.runs.find((r: { period: number }) => r.period === 1).state, 'skipped');
    });

    test(`${name}: an alert mail beyond the recipient's cap is not sent and the run says so; under the cap it is queued; the webhook goes either way`, { timeout: 120_000 }, async () => {
      // No key: the confirmation mail is the mailbox's one mail of the day (MAIL_PER_RECIPIENT_PER_DAY=1).
      const lead = { name: 'Grace', email: 'grace@watch-limits.com' };
      const capped = await request(t.app).post('/watches').send({ domain: 'cap-a.watch-limits.com', lead, every: 'day', notify: { webhookUrl: 'https://hooks.watch-limits.com/a' } }).expect(202);
      const mail = (await listMail(t.ctx.db)).find((m) => m.watch_id === capped.body.watchId)!;
      const confirm = new URL(/https?:\/\/\S+\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(mail.text_body)![0]);
      await request(t.app).post(confirm.pathname + confirm.search).expect(200);
      // A key's watch needs no confirmation, so its mailbox is under the cap when the alert comes.
      const { key } = await t.services.keys.create('Roomy', 100);
      const roomy = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`)
        .send({ domain: 'cap-b.watch-limits.com', lead: { name: 'Lin', email: 'lin@watch-limits.com' }, every: 'day' }).expect(202);
      const alerted = async (watchId: string) => (await runs(watchId)).find((r) => r.period > 0 && r.alerted_at !== null && r.changes !== '[]');
      await until(async () => Boolean((await alerted(capped.body.watchId)) && (await alerted(roomy.body.watchId))), 'both watches\' alerting runs');
      await request(t.app).delete(`/watches/${capped.body.watchId}${new URL(capped.body.manageUrl).search}`).expect(200);
      await request(t.app).delete(`/watches/${roomy.body.watchId}`).set('Authorization', `Bearer ${key}`).expect(200);

      const over = (await alerted(capped.body.watchId))!;
      assert.equal(over.alert_mail, 'capped');
      assert.match(over.changes!, /"kind":"headline"/);
      const sentToGrace = (await listMail(t.ctx.db)).filter((m) => m.to_addr === lead.email);
      assert.deepEqual(sentToGrace.map((m) => m.id.startsWith('watch-alert-')), [false], 'only the confirmation was queued for the capped mailbox');
      assert.ok(deliveries.sent.some((s) => s.event.id === `evt-${capped.body.watchId}.${over.period}` && s.event.type === 'readiness.changed'), 'the webhook went regardless');
      const shown = await request(t.app).get(`/watches/${capped.body.watchId}${new URL(capped.body.manageUrl).search}`).set('Accept', 'application/json').expect(200).expect(conforms);
      assert.equal(shown.body.runs.find((r: { period: number }) => r.period === over.period).alertMail, 'capped');
      assert.equal(shown.body.runs.find((r: { period: number }) => r.period === 0).alertMail, null, 'the baseline mails nothing');
      const page = await request(t.app).get(`/watches/${capped.body.watchId}${new URL(capped.body.manageUrl).search}`).set('Accept', 'text/html').expect(200).expect(conforms);
      assert.match(page.text, /The alert mail was not sent: this address had reached its mails for the day\./);

      const under = (await alerted(roomy.body.watchId))!;
      assert.equal(under.alert_mail, 'queued');
      assert.ok((await listMail(t.ctx.db)).some((m) => m.watch_id === roomy.body.watchId && m.id === `watch-alert-${roomy.body.watchId}.${under.period}`), 'the alert under the cap is in the outbox');
    });
  });
}
