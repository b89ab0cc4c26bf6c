import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedFileFor } from '../../src/jobs/index.ts';
import { backoffAfter, checkEnqueue } from '../../src/jobs/port.ts';

test('the embedded queue lives beside the SQLite database, or in memory with it', () => {
  assert.equal(embeddedFileFor('sqlite:./data/agent-readiness.sqlite'), './data/agent-readiness.jobs.sqlite');
  assert.equal(embeddedFileFor('sqlite:/var/lib/ar/db'), '/var/lib/ar/db.jobs.sqlite');
  assert.equal(embeddedFileFor('sqlite::memory:'), ':memory:');
});

test('with PostgreSQL and no Redis, one file per database under ./data, the password left out of the name', () => {
  const a = embeddedFileFor('postgres://u:secret@db:5432/one');
  assert.match(a, /^data\/jobs-[0-9a-f]{12}\.sqlite$/);
  assert.equal(embeddedFileFor('postgres://u:other@db:5432/one'), a);
  assert.notEqual(embeddedFileFor('postgres://u:secret@db:5432/two'), a);
});

test('defaults and backoff', () => {
  assert.deepEqual(checkEnqueue('q', { jobId: 'a.b-c_d' }), { jobId: 'a.b-c_d', priority: 100, attempts: 3, delayMs: 0, backoffMs: 1000 });
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffAfter(n, 500)), [500, 1000, 2000, 4000]);
});

test('createJobEngine picks the embedded engine without Redis and loads it on first use', async () => {
  const { createJobEngine } = await import('../../src/jobs/index.ts');
  const { pino } = await import('pino');
  const engine = createJobEngine({ redisUrl: undefined, redisKeyPrefix: '', databaseUrl: 'sqlite::memory:', jobLeaseMs: 30_000 }, pino({ level: 'silent' }));
  assert.equal(engine.kind, 'embedded');
  const seen: unknown[] = [];
  engine.process<{ x: number }>('facade', async (job) => { seen.push(job.data); }, { concurrency: 1, timeoutMs: 5000 });
  await engine.enqueue('facade', { x: 1 }, { jobId: 'f1' });
  const stop = Date.now() + 20_000;
  while (seen.length === 0 && Date.now() < stop) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(seen, [{ x: 1 }]);
  await engine.close();
});
