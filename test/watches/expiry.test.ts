// An unconfirmed watch expires (issue 35): still pending WATCH_CONFIRM_TTL_S after its
// creation, it is deleted with its runs, deliveries and unsent mails by a sweep on the job
// engine, and every link it had (the mail's confirm and unsubscribe, the manage URL) answers
// 404: its tokens were derived from the id, and nothing with that id is left to open. Tested
// with a short TTL on the embedded engine with SQLite and on BullMQ with PostgreSQL: the
// periodic sweep, the sweep at start (a watch that expired while no instance ran), and the
// refusal between two sweeps (the service reads created_at against the same TTL).
import { serviceBackend, type ServiceBackend } from '../helpers/service-backend.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { ConfirmationExpiry, sweepPeriodMs } from '../../src/watches/expiry.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { watchRow } from '../webhooks/watch-rows.ts';
import { until } from './fakes.ts';

const REDIS = process.env.TEST_REDIS_URL;
const PG = process.env.TEST_DATABASE_URL;
const distributedSkip = REDIS && PG ? false : 'TEST_REDIS_URL and TEST_DATABASE_URL are not both set';
if (distributedSkip) console.warn(`SKIPPING the expiry of unconfirmed watches on BullMQ and PostgreSQL: ${distributedSkip}`);

const lead = { name: 'Ada Lovelace', email: 'ada@expiry-site.com' };


function linkOf(text: string, kind: 'confirm' | 'unsubscribe'): string {
  const m = new RegExp(`https?://\\S+/watches/[0-9a-f-]{36}/${kind}\\?token=[A-Za-z0-9_-]{43}`).exec(text);
  assert.ok(m, `no ${kind} link in ${text}`);
  const u = new URL(m[0]);
  return u.pathname + u.search;
}

interface Links { watchId: string; manage: string; confirm: string; unsubscribe: string }

async function pendingWatch(t: TestApp, domain: string): Promise<Links> {
  const made = await request(t.app).post('/watches').send({ domain, lead, every: 'day', notify: { webhookUrl: 'https://hooks.expiry-site.com/in' } }).expect(202).expect(conforms);
  const mail = (await listMail(t.ctx.db)).find((m) => m.watch_id === made.body.watchId)!;
  const manage = new URL(made.body.manageUrl);
  return { watchId: made.body.watchId, manage: manage.pathname + manage.search, confirm: linkOf(mail.text_body, 'confirm'), unsubscribe: linkOf(mail.text_body, 'unsubscribe') };
}

/** Every link of the watch answers 404 (a page for browsers, the Error shape for programs); none changes anything. */
async function allGone(t: TestApp, l: Links): Promise<void> {
  await request(t.app).get(l.confirm).set('Accept', 'text/html').expect(404).expect(conforms);
  await request(t.app).post(l.confirm).type('form').send({ confirm: 'yes' }).expect(404).expect(conforms);
  await request(t.app).post(l.confirm).set('Accept', 'application/json').expect(404).expect(conforms);
  await request(t.app).get(l.unsubscribe).expect(404).expect(conforms);
  await request(t.app).post(l.unsubscribe).type('form').send('List-Unsubscribe=One-Click').expect(404).expect(conforms);
  await request(t.app).get(l.manage).set('Accept', 'application/json').expect(404).expect(conforms);
  await request(t.app).get(l.manage).set('Accept', 'text/html').expect(404).expect(conforms);
  await request(t.app).post(l.manage.replace('?', '/test?')).expect(404).expect(conforms);
  await request(t.app).delete(l.manage).expect(404).expect(conforms);
}

for (const engine of ['embedded', 'distributed'] as const) {
  const where = engine === 'embedded' ? 'embedded engine, SQLite' : 'BullMQ on Redis, PostgreSQL';
  describe(`unconfirmed watches expire (${where})`, { skip: engine === 'distributed' ? distributedSkip : false }, () => {
    let store: ServiceBackend;
    before(async () => {
      store = await serviceBackend(engine, 'expiry');
    });
    after(async () => {
      await store?.drop();
    });

    test('WATCH_CONFIRM_TTL_S=4: the pending watch is deleted by the periodic sweep, its mail dropped, every link 404; confirmed and keyed watches stay', { timeout: 120_000 }, async () => {
      const t = await testApp({ LOG_LEVEL: 'silent', WATCH_CONFIRM_TTL_S: '4', RATE_LIMIT_PER_IP: '100/60', ...store.env }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } });
      try {
        const lapsed = await pendingWatch(t, 'lapsed.expiry-site.com');
        const confirmed = await pendingWatch(t, 'confirmed.expiry-site.com');
        await request(t.app).post(confirmed.confirm).expect(200);
        const { key } = await t.services.keys.create('Expiry partner', 5);
        const keyed = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`).send({ domain: 'keyed.expiry-site.com', lead, every: 'day' }).expect(202);
        // The mailer is off here, so the confirmation mail is still in the outbox when the watch expires.
        const mailId = (await listMail(t.ctx.db)).find((m) => m.watch_id === lapsed.watchId)!.id;
        const started = Date.now();
        await until(async () => !(await t.ctx.db('watches').where({ id: lapsed.watchId }).first()), 'the sweep to delete the lapsed watch', 60_000);
        const waited = Date.now() - started;
        assert.ok(waited < 4000 + sweepPeriodMs(4) + 15_000, `deleted ${waited} ms after creation`);
        await allGone(t, lapsed);
        const mail = (await t.ctx.db('mail_outbox').where({ id: mailId }).first())!;
        assert.deepEqual([mail.status, mail.last_error], ['dropped', 'not sent: the watch was never confirmed and has expired']);
        assert.equal((await t.ctx.db('watches').where({ id: confirmed.watchId }).first())?.status, 'active');
        assert.equal((await t.ctx.db('watches').where({ id: keyed.body.watchId }).first())?.status, 'active');
        await request(t.app).get(confirmed.manage).set('Accept', 'application/json').expect(200).expect(conforms);
      } finally {
        await t.close();
      }
    });

    test('the sweep at start: a watch that expired while no instance ran is deleted when one starts (TTL one hour, so no periodic sweep comes)', { timeout: 120_000 }, async () => {
      const t = await testApp({ LOG_LEVEL: 'silent', WATCH_CONFIRM_TTL_S: '3600', ...store.env }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() }, deferWorkers: true });
      try {
        const old = await watchRow(t.ctx.db, 'pending-confirmation', { created_at: new Date(Date.now() - 2 * 3600_000).toISOString() });
        const young = await watchRow(t.ctx.db, 'pending-confirmation', { created_at: new Date(Date.now() - 1800_000).toISOString() });
        t.services.startWorkers();
        await until(async () => !(await t.ctx.db('watches').where({ id: old }).first()), 'the start sweep to delete the expired watch', 60_000);
        assert.ok(await t.ctx.db('watches').where({ id: young }).first(), 'a watch within its TTL stays');
      } finally {
        await t.close();
      }
    });
  });
}

describe('between two sweeps, an expired watch is already gone to its links', () => {
  test('the clock passes the TTL: every link 404 and the confirm button activates nothing; the next sweep deletes it', async () => {
    // No workers: the sweep never runs on its own here.
    const t = await testApp({ LOG_LEVEL: 'silent', WATCH_CONFIRM_TTL_S: '60', RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() }, deferWorkers: true });
    try {
      const w = await pendingWatch(t, 'between.expiry-site.com');
      await request(t.app).get(w.confirm).expect(200).expect(conforms);
      await request(t.app).get(w.manage).set('Accept', 'application/json').expect(200).expect(conforms);
      const real = t.ctx.now;
      t.ctx.now = () => new Date(real().getTime() + 61_000);
      await allGone(t, w);
      assert.equal((await t.ctx.db('watches').where({ id: w.watchId }).first())?.status, 'pending-confirmation', 'still stored, never activated');
      const expiry = new ConfirmationExpiry({ db: t.ctx.db, log: t.ctx.log, now: () => t.ctx.now(), jobs: t.services.jobs, ttlS: 60 });
      assert.equal(await expiry.sweep(), 1);
      assert.equal(await t.ctx.db('watches').where({ id: w.watchId }).first(), undefined);
    } finally {
      await t.close();
    }
  });

  test('the sweep period: a quarter of the TTL, from one second to one hour', () => {
    assert.deepEqual([sweepPeriodMs(2), sweepPeriodMs(60), sweepPeriodMs(604800)], [1000, 15_000, 3_600_000]);
  });
});
