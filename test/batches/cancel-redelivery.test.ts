// A cancelled batch whose running item is delivered again (at-least-once: its process died, or a
// lease lapsed while it still ran). The real app and batch service, with a job engine that hands
// the test each delivery to run when it chooses, so the redelivery is exact rather than timed:
// - its first run died: the redelivery finishes it (a cancel takes only what has not started),
//   and a later redelivery does nothing;
// - its first run is still alive: the two archive it once between them.
// And what a cancel or a lost race leaves (issue 35):
// - an item delivered but not started (its address's slots held by scans under way) is never
//   scanned once the cancel has answered;
// - a scan that lost the exactly-once race (the item finished elsewhere meanwhile) is dropped
//   quietly: not archived, not an error, and never served to a later POST /scan of the domain.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import type { Job, JobEngine, Processor } from '../../src/jobs/port.ts';
import { finishItemDone, markItemRunning } from '../../src/storage/queries/batches.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner, type FakeScanner } from '../scan-api/fixtures.ts';

const TOKEN = 'operator-token-0123456789';

/** A job engine that delivers a batch item only when the test says so (other queues never run). */
function manualEngine(): JobEngine & { deliver(data: { b: string; s: number }): Promise<void> } {
  const processors = new Map<string, Processor<unknown>>();
  return {
    kind: 'embedded',
    enqueue: async () => undefined,
    enqueueMany: async () => undefined,
    cancel: async () => undefined,
    process: (queue, p) => { processors.set(queue, p as Processor<unknown>); },
    health: () => ({ state: 'ok' }), counts: async () => [],
    close: async () => undefined,
    deliver(data) {
      const job: Job<unknown> = { id: `${data.b}.${data.s}`, queue: 'batch-items', data, attempt: 1, attempts: 3, signal: new AbortController().signal };
      return processors.get('batch-items')!(job);
    },
  };
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const stop = Date.now() + 30_000;
  while (!(await cond())) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a cancelled batch whose running item is redelivered', () => {
  let t: TestApp;
  let scanner: FakeScanner;
  let engine: ReturnType<typeof manualEngine>;
  let key: string;
  before(async () => {
    scanner = fakeScanner({ held: true });
    engine = manualEngine();
    t = await testApp({ OPERATOR_TOKEN: TOKEN, LOG_LEVEL: 'silent' }, {}, { scanner, jobs: engine, scans: { resolve: fakeResolver() } });
    key = (await t.services.keys.create('Redelivery Partner', 50)).key;
  });
  after(async () => {
    scanner.release();
    await t?.close();
  });

  const create = async (domains: string[]) => (await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains }).expect(202)).body.batchId as string;
  const rows = async (id: string) => (await request(t.app).get(`/batches/${id}/results`).set('Authorization', `Bearer ${key}`).expect(200)).text.trim().split('\n').map((l) => JSON.parse(l) as { domain: string; state: string });
  const archived = async (domain: string) => Number((await t.ctx.db('scans').where({ domain }).count({ n: '*' }).first())?.n);

  test('its first run died: the redelivery finishes it, once; the batch stays cancelled', async () => {
    const id = await create(['r0.redelivery-site.com', 'r1.redelivery-site.com', 'r2.redelivery-site.com']);
    // The first run took the item (pending → running) and its process died before finishing.
    await markItemRunning(t.ctx.db, id, 0);
    const cancelled = await request(t.app).delete(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
    assert.deepEqual([cancelled.body.status, cancelled.body.cancelled, cancelled.body.pending], ['cancelled', 2, 1]);
    const redelivered = engine.deliver({ b: id, s: 0 });
    await until(() => scanner.calls.length === 1, 'the redelivery to scan');
    scanner.release();
    await redelivered;
    assert.deepEqual((await rows(id)).map((r) => r.state), ['done', 'cancelled', 'cancelled']);
    const b = (await request(t.app).get(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    assert.deepEqual([b.status, b.done, b.pending, b.cancelled], ['cancelled', 1, 0, 2]);
    await engine.deliver({ b: id, s: 0 });
    await engine.deliver({ b: id, s: 1 });
    assert.equal(scanner.calls.length, 1, 'a finished or cancelled item is not scanned again');
    assert.equal(await archived('r0.redelivery-site.com'), 1);
    assert.equal(await archived('r1.redelivery-site.com'), 0);
  });

  test('its first run is still alive when the redelivery comes: one archive between them', async () => {
    const before = scanner.calls.length;
    const id = await create(['s0.redelivery-site.com', 's1.redelivery-site.com']);
    const first = engine.deliver({ b: id, s: 0 });
    await until(() => scanner.calls.length === before + 1, 'the first run to scan');
    await request(t.app).delete(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
    const second = engine.deliver({ b: id, s: 0 });
    // The redelivery either joins the scan in flight (coalescing) or starts its own; both are held.
    await new Promise((r) => setImmediate(r));
    scanner.release();
    const settled = await Promise.allSettled([first, second]);
    for (const s of settled) if (s.status === 'rejected') assert.match(String(s.reason), /already finished/, 'a run that lost the race only says so');
    assert.ok(settled.some((s) => s.status === 'fulfilled'), 'one run finished the item');
    assert.deepEqual((await rows(id)).map((r) => r.state), ['done', 'cancelled']);
    assert.equal(await archived('s0.redelivery-site.com'), 1, 'archived once');
  });
});

describe('a cancel, and the exactly-once race, leave nothing behind', () => {
  const lead = { name: 'Ada Lovelace', email: 'ada@example.com' };
  const fresh = async () => {
    const scanner = fakeScanner({ held: true });
    const engine = manualEngine();
    const t = await testApp({ OPERATOR_TOKEN: TOKEN, LOG_LEVEL: 'silent', FLEET_PER_ADDRESS_CONCURRENCY: '2' }, {}, { scanner, jobs: engine, scans: { resolve: fakeResolver() } });
    const key = (await t.services.keys.create('Race Partner', 50)).key;
    const create = async (domains: string[]) => (await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains }).expect(202)).body.batchId as string;
    const rows = async (id: string) => (await request(t.app).get(`/batches/${id}/results`).set('Authorization', `Bearer ${key}`).expect(200)).text.trim().split('\n').map((l) => JSON.parse(l) as { domain: string; state: string });
    return { scanner, engine, t, key, create, rows };
  };

  test('an item delivered but not started (its address busy) is never scanned after the cancel answered', async () => {
    const { scanner, engine, t, key, create, rows } = await fresh();
    try {
      // Every fake domain resolves to one address, whose two slots c0 and c1 hold.
      const id = await create(['c0.cancel-site.com', 'c1.cancel-site.com', 'c2.cancel-site.com']);
      const running = [engine.deliver({ b: id, s: 0 }), engine.deliver({ b: id, s: 1 })];
      await until(() => scanner.calls.length === 2, 'two scans under way');
      // Delivered while both slots are held: it does not start (today: sent back, RetryLater).
      const waiting = engine.deliver({ b: id, s: 2 }).catch((err: unknown) => err);
      await new Promise((r) => setImmediate(r));
      const cancelled = await request(t.app).delete(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
      assert.equal(cancelled.body.status, 'cancelled');
      scanner.release();
      await Promise.allSettled([...running, waiting]);
      // The engine delivers it again later (RetryLater): still nothing.
      await engine.deliver({ b: id, s: 2 }).catch(() => undefined);
      assert.deepEqual(scanner.calls.sort(), ['c0.cancel-site.com', 'c1.cancel-site.com'], 'c2 was never scanned');
      assert.deepEqual((await rows(id)).map((r) => r.state), ['done', 'done', 'cancelled']);
    } finally {
      scanner.release();
      await t.close();
    }
  });

  test('a scan that lost the race is not archived, not an error, and never served to a POST /scan', async () => {
    const { scanner, engine, t, create, rows } = await fresh();
    try {
      const domain = 'race.lost-site.com';
      const id = await create([domain]);
      const run = engine.deliver({ b: id, s: 0 });
      await until(() => scanner.calls.length === 1, 'the batch scan under way');
      // Another run (another instance, after a lapsed lease) finishes the item first.
      await finishItemDone(t.ctx.db, id, 0, { scanId: '00000000-0000-4000-8000-000000000001', archived: true, headline: 'open', score: 90, confidence: 'high', facts: '{"a":{},"v":{}}' }, new Date().toISOString());
      scanner.release();
      await run; // not an error
      assert.equal(Number((await t.ctx.db('scans').where({ domain }).count({ n: '*' }).first())?.n), 0, 'the losing scan is not archived');
      assert.deepEqual((await rows(id)).map((r) => r.state), ['done']);
      // A person asks for the domain right after: no unarchived report from the window, a scan of their own.
      const res = await request(t.app).post('/scan').send({ domain, lead }).expect(200);
      assert.equal(res.body.coalesced, false, 'not served the withdrawn scan');
      assert.match(String(res.body.reportUrl), /\/r\//, 'an archived report, with its link');
      assert.equal(scanner.calls.length, 2);
      const again = await request(t.app).post('/scan').send({ domain, lead }).expect(200);
      assert.equal(again.body.coalesced, true);
      assert.equal(again.body.reportUrl, res.body.reportUrl, 'later requests coalesce onto the archived one');
    } finally {
      scanner.release();
      await t.close();
    }
  });
});
