// Batches that always finish (issue 35):
// - a crash between an item's commit and finishIfDone leaves a batch `running` with every item
//   finished: the reconciler marks it done at the next start, and while the service runs within
//   its period (10 s; the promise is 30 s);
// - waiting for a per-address slot never spends a job's timeout or attempts, on either engine:
//   twelve domains on one address, one slot, runs cut off after 3 s while each scan takes
//   0.4 s (twelve in a row take 4.8 s, so eight runs started together could not all finish
//   inside their timeout if they waited in it, nor could a run that waited 3 s for a slot, as
//   the Redis limiter did): every item done, none failed, every run an attempt 1.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import type { JobEngine } from '../../src/jobs/port.ts';
import { finishItemDone } from '../../src/storage/queries/batches.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { idleEngine, log, REDIS, until } from '../jobs/engines.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-finish-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const RESULT = { scanId: '00000000-0000-4000-8000-0000000000aa', archived: true, headline: 'open', score: 90, confidence: 'high', facts: '{"a":{},"v":{}}' };

describe('a batch whose every item finished, its finishing step lost to a crash', () => {
  test('is marked done at the next start, and by a running service within its period', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'finish.sqlite')}`, LOG_LEVEL: 'silent' };
    const first = await testApp(env, {}, { jobs: idleEngine, scanner: fakeScanner() });
    const key = (await first.services.keys.create('Finish Partner', 50)).key;
    const create = async (t: TestApp) => (await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains: ['a.finish-site.com', 'b.finish-site.com'] }).expect(202)).body.batchId as string;
    const status = async (t: TestApp, id: string) => (await request(t.app).get(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status as string;
    // Each item committed done by its run, which then died before finishIfDone.
    const crashAfterItems = async (t: TestApp, id: string) => {
      for (const seq of [0, 1]) assert.ok(await finishItemDone(t.ctx.db, id, seq, RESULT, new Date().toISOString()));
      await t.ctx.db('batches').where({ id }).update({ status: 'running', started_at: new Date().toISOString() });
    };
    const id = await create(first);
    await crashAfterItems(first, id);
    assert.equal(await status(first, id), 'running');
    await first.close();

    const second = await testApp(env, {}, { jobs: idleEngine, scanner: fakeScanner() });
    try {
      await until(async () => (await status(second, id)) === 'done', 'the batch done after the restart', 5_000);
      const other = await create(second);
      await crashAfterItems(second, other);
      await until(async () => (await status(second, other)) === 'done', 'the batch done while the service runs', 30_000);
    } finally {
      await second.close();
    }
  });
});

for (const kind of ['embedded', 'distributed'] as const) {
  describe(`waiting for an address slot spends neither timeout nor attempts: ${kind}`, { skip: kind === 'distributed' && !REDIS ? 'TEST_REDIS_URL is not set' : false }, () => {
    const prefix = `tfinish-${randomBytes(4).toString('hex')}:`;
    after(async () => {
      if (kind !== 'distributed') return;
      const redis = new Redis(REDIS!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });

    test('twelve domains on one address, one slot, runs cut off after 3 s: all done, none failed, no attempt spent', async () => {
      const inner = kind === 'embedded'
        ? new EmbeddedJobEngine({ file: ':memory:', log, pollMs: 20 })
        : new DistributedJobEngine({ redisUrl: REDIS!, keyPrefix: prefix, log, leaseMs: 5000 });
      const attempts: number[] = [];
      const spent: string[] = [];
      // The real engine; batch items' runs are cut off after 3 s, their attempt numbers kept,
      // and any run that timed out (its signal aborted) or failed noted: each spends an attempt.
      const jobs: JobEngine = {
        kind: inner.kind,
        enqueue: (q, d, o) => inner.enqueue(q, d, o),
        enqueueMany: (q, j) => inner.enqueueMany(q, j),
        cancel: (q, id) => inner.cancel(q, id),
        health: () => inner.health(), counts: (q) => inner.counts(q),
        close: () => inner.close(),
        process: (q, p, o) => inner.process(q, async (job) => {
          if (q !== 'batch-items') return p(job);
          attempts.push(job.attempt);
          job.signal.addEventListener('abort', () => spent.push(`${job.id} aborted: ${String((job.signal.reason as Error)?.message ?? job.signal.reason)}`), { once: true });
          try {
            await p(job);
          } catch (err) {
            if ((err as Error).name !== 'RetryLater') spent.push(`${job.id} failed: ${(err as Error).message}`);
            throw err;
          }
        }, q === 'batch-items' ? { ...o, timeoutMs: 3000 } : o),
      };
      const env: Record<string, string> = { FLEET_PER_ADDRESS_CONCURRENCY: '1', WORKER_CONCURRENCY: '8', LOG_LEVEL: 'silent' };
      if (kind === 'distributed') Object.assign(env, { REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix });
      const t = await testApp(env, {}, { jobs, scanner: fakeScanner({ delayMs: 400 }), scans: { resolve: fakeResolver() } });
      try {
        const key = (await t.services.keys.create('Shared Host Partner', 50)).key;
        const domains = Array.from({ length: 12 }, (_, i) => `s${i}.shared-host-site.com`);
        // Until the service's own Redis connection is up (before it, a 503 and nothing stored).
        let id = '';
        await until(async () => {
          const res = await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains });
          id = res.body.batchId as string;
          return res.status === 202;
        }, 'the batch accepted');
        const batch = async () => (await request(t.app).get(`/batches/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body as { status: string; done: number; failed: number };
        await until(async () => (await batch()).status === 'done', 'the batch', 90_000);
        const b = await batch();
        assert.deepEqual([b.done, b.failed], [12, 0]);
        assert.ok(attempts.length >= 12, `${attempts.length} runs`);
        assert.deepEqual(spent, [], 'no run timed out or failed: waiting spent no attempt');
        assert.deepEqual([...new Set(attempts)], [1], 'every run was a first attempt');
      } finally {
        await t.close();
      }
    });
  });
}
