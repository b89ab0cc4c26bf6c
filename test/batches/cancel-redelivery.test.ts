// A cancelled batch whose running item is delivered again (at-least-once: its process died, or a
// lease lapsed while it still ran). The real app and batch service, with a job engine that hands
// the test each delivery to run when it chooses, so the redelivery is exact rather than timed:
// - its first run died: the redelivery finishes it (a cancel takes only what has not started),
//   and a later redelivery does nothing;
// - its first run is still alive: the two archive it once between them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import type { Job, JobEngine, Processor } from '../../src/jobs/port.ts';
import { markItemRunning } from '../../src/storage/queries/batches.ts';
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
    health: () => ({ state: 'ok' }),
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
