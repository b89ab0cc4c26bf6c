// A watch run claimed by an earlier attempt of its job (sent back because its address was busy,
// or cut short by a crash) whose watch ends before the job runs again: the run is finished as
// `skipped`, never left `running` for ever (the change-feed's two-instance test waits for no run
// in flight, and met one such run under load).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { recordingDeliveries, until } from './fakes.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '3600' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() }, deliveries: recordingDeliveries() });
});
after(() => t.close());

test('a run left running by an earlier attempt is finished as skipped when its job finds the watch ended', async () => {
  const { key } = await t.services.keys.create('Ended run', 10);
  const made = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`).send({ domain: 'ended-run.example-watch.com', lead: { name: 'Ada', email: 'ada@example-watch.com' }, every: 'day' }).expect(202);
  const id = made.body.watchId as string;
  await until(async () => (await t.ctx.db('watch_runs').where({ watch_id: id, period: 0 }).first())?.state === 'done', 'the baseline run done');
  // An attempt of period 1 claimed its run, then went back to the queue; the watch ends meanwhile.
  await t.ctx.db('watch_runs').insert({ watch_id: id, period: 1, state: 'running', charged: false, started_at: new Date().toISOString() });
  await request(t.app).delete(`/watches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
  await t.services.watches.d.enqueueRun(id, 1, 0);
  await until(async () => (await t.ctx.db('watch_runs').where({ watch_id: id, period: 1 }).first())?.state === 'skipped', 'the claimed run finished as skipped', 30_000);
  const run = await t.ctx.db('watch_runs').where({ watch_id: id, period: 1 }).first();
  assert.match(run.error, /The watch ended before this run could scan/);
  assert.equal(await t.ctx.db('watch_runs').where({ watch_id: id }).count({ n: '*' }).first().then((r) => Number(r!.n)), 2, 'no other run was made');
});
