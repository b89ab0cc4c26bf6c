// An unsubscribe or a delete stops everything that would go out afterwards (issue 35), even
// when it lands in the middle: each race is injected where it hurts, and nothing goes out.
//   1. The watch ends after its webhook event was queued, as the attempt starts (between the
//      attempt reading its delivery row and its request): the request never leaves; the row
//      says why.
//   2. The watch ends during its run's scan, after the run began (the run's copy of the watch
//      still says active): the run decides its alert, and neither its mail nor its webhook is
//      queued.
//   3. The alert mail is queued, then the one-click unsubscribe, then the mailer's pass (a real
//      SMTP server): the mail is dropped, never sent.
// On the real watch runner (embedded engine, SQLite, WATCH_INTERVAL_S=2) with a fake scan engine
// and the test world's webhook receiver.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import request from 'supertest';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { Mailer } from '../../src/mail/mailer.ts';
import { smtpTransport } from '../../src/mail/transport.ts';
import type { Egress } from '../../src/net/egress.ts';
import type { SiteScanner } from '../../src/scans/types.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { endWatch, findWatch, watchIsActive, type RunRow } from '../../src/storage/queries/watches.ts';
import { WebhookDeliveryService, type DeliveryView } from '../../src/webhooks/deliveries.ts';
import { webhookSecrets } from '../../src/webhooks/master-key.ts';
import { localWatchSlots } from '../../src/webhooks/watch-slots.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { cannedReport, fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { SmtpSink } from '../scan-api/smtp-sink.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { watchRow } from '../webhooks/watch-rows.ts';
import { startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';
import { until } from './fakes.ts';

const HOOKS = 'https://hooks.world-fixtures.com';
const log = pino({ level: 'silent' });

describe('a watch ended mid-flight sends nothing more', () => {
  let world: World;
  const receiver = webhookReceiver();
  let egress: Egress;
  before(async () => {
    world = await startWorld({ scenarios: [], handlers: { hooks: receiver.handler } });
    egress = world.egress().networkA;
  });
  after(async () => {
    receiver.close();
    await world?.stop();
  });

  describe('1. the webhook attempt', () => {
    let t: TestDb;
    before(async () => {
      t = await openTestDb('sqlite');
    });
    after(() => t?.close());

    test('the watch ends between the attempt reading its row and its request: nothing reaches the receiver; the row says why', async () => {
      const jobs = new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 });
      try {
        const watchId = await watchRow(t.db);
        const secrets = webhookSecrets(undefined, t.db, () => new Date());
        let ends = 0;
        const hooks = new WebhookDeliveryService({
          db: t.db, log, now: () => new Date(), jobs, egress: async () => egress, backoffMs: 50, timeoutMs: 3000, userAgent: 'agent-readiness-webhooks/test',
          // The attempt loads the watch's secret after reading its row and before sending: the unsubscribe lands here.
          secret: async (id, version) => {
            if (ends++ === 0) await endWatch(t.db, id, new Date().toISOString(), 'unsubscribed');
            return secrets(id, version);
          },
          watchActive: (id) => watchIsActive(t.db, id), slots: localWatchSlots(),
        });
        hooks.start();
        receiver.script('/raced', [{ status: 200 }]);
        const e = { id: `evt_${randomUUID()}`, type: 'readiness.changed' as const, watchId };
        const queued = await hooks.send({ watchId, url: `${HOOKS}/raced`, secretVersion: 1, event: e });
        await until(async () => (await hooks.list(watchId, 5)).some((d) => d.status !== 'pending'), 'the attempt to settle the row', 20_000);
        assert.equal(ends, 1, 'the race was injected once');
        assert.deepEqual(receiver.received('/raced'), [], 'nothing reached the receiver');
        const [row] = await hooks.list(watchId, 5) as [DeliveryView];
        assert.deepEqual([queued, row.status, row.attempts, row.lastError], ['queued', 'failed', 0, 'not sent: the watch had ended']);
      } finally {
        await jobs.close();
      }
    });
  });

  describe('2 and 3. the run and the mailer (the real watch runner)', () => {
    let t: TestApp;
    const sink = new SmtpSink();
    /** Called before a watched domain's second scan (its first alerting run), once per domain. */
    const beforeSecondScan = new Map<string, () => Promise<void>>();
    const inner = fakeScanner({
      // Every domain's first scan is partially-blocked, later ones agent-hostile: a change that alerts.
      make: (domain) => cannedReport(domain, inner.calls.filter((c) => c === domain).length > 1 ? { headline: 'agent-hostile' } : {}),
    });
    const scanner: SiteScanner = {
      async scan(domain, opts) {
        const hook = beforeSecondScan.get(domain);
        if (hook && inner.calls.includes(domain)) {
          beforeSecondScan.delete(domain);
          await hook();
        }
        return inner.scan(domain, opts);
      },
    };
    let key = '';
    before(async () => {
      await sink.start(await SmtpSink.freePort());
      t = await testApp({ LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '2', COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '30/60' }, {}, {
        scanner, scans: { resolve: fakeResolver() }, webhookEgress: egress, batches: false,
      });
      key = (await t.services.keys.create('Race partner', 100)).key;
    });
    after(async () => {
      await t?.close();
      await sink.stop();
    });

    const runs = async (watchId: string) => t.ctx.db<RunRow>('watch_runs').where({ watch_id: watchId }).orderBy('period');

    test('2. the watch ends during its run\'s scan: the run decides its alert, and neither the mail nor the webhook is queued', { timeout: 120_000 }, async () => {
      receiver.script('/mid-run', [{ status: 200 }]);
      const made = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`)
        .send({ domain: 'mid.race-site.com', lead: { name: 'Ada', email: 'ada@race-site.com' }, every: 'day', notify: { email: true, webhookUrl: `${HOOKS}/mid-run` } }).expect(202).expect(conforms);
      const id = made.body.watchId as string;
      beforeSecondScan.set('mid.race-site.com', async () => {
        await t.services.watches.end((await findWatch(t.ctx.db, id))!, 'unsubscribed');
      });
      const decided = await until(async () => (await runs(id)).some((r) => r.period > 0 && r.alerted_at !== null), 'the alerting run to decide', 60_000)
        .then(async () => (await runs(id)).find((r) => r.period > 0 && r.alerted_at !== null)!);
      assert.match(decided.changes!, /"kind":"headline"/, 'the run found a change that alerts');
      assert.deepEqual((await listMail(t.ctx.db)).filter((m) => m.watch_id === id), [], 'no alert mail queued');
      assert.deepEqual(await t.ctx.db('webhook_deliveries').where({ watch_id: id }), [], 'no webhook delivery stored');
      assert.deepEqual(receiver.received('/mid-run'), []);
    });

    test('3. the alert mail is queued, then the one-click unsubscribe, then the mailer\'s pass: the mail is dropped, the SMTP server gets nothing', { timeout: 120_000 }, async () => {
      const made = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`)
        .send({ domain: 'queued.race-site.com', lead: { name: 'Lin', email: 'lin@race-site.com' }, every: 'day' }).expect(202).expect(conforms);
      const id = made.body.watchId as string;
      await until(async () => (await runs(id)).some((r) => r.alert_mail === 'queued'), 'the alert mail to be queued', 60_000);
      const manage = new URL(made.body.manageUrl);
      await request(t.app).post(`/watches/${id}/unsubscribe${manage.search}`).type('form').send('List-Unsubscribe=One-Click').expect(200).expect(conforms);
      const mailer = new Mailer({ db: t.ctx.db, transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`, 2000), from: 'agent-readiness <reports@agent-readiness.test>', baseUrl: 'http://agent-readiness.test', log });
      try {
        assert.deepEqual(await mailer.drainOnce(), { sent: 0, failed: 0 });
      } finally {
        await mailer.stop();
      }
      assert.deepEqual(sink.received.filter((m) => m.to.includes('lin@race-site.com')), []);
      const alert = (await listMail(t.ctx.db)).find((m) => m.watch_id === id && m.id.startsWith('watch-alert-'))!;
      assert.deepEqual([alert.status, alert.last_error], ['dropped', 'not sent: its watch had ended (unsubscribed, deleted or never confirmed) before it went out']);
    });
  });
});
