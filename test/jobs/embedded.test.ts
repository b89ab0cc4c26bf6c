// The embedded engine's own faults and history, beyond the port's contract suite:
// - its queue file locked by another process (a claim that fails): the claim loop keeps going,
//   with backoff, health() says degraded with the reason, and every job still runs once the
//   lock is gone;
// - a jobs file of the layout before December 2026 (liteque's `tasks` and our `embedded_jobs`),
//   written here with liteque's public API exactly as the old adapter did: its jobs are
//   migrated and run, cancelled ones are not.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrateDB, SqliteQueue, type buildDBClient } from 'liteque';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { log, until } from './engines.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-embedded-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('embedded engine: its file locked by another process', () => {
  test('claims fail while the lock is held: degraded with the reason; the loop retries and every job runs after', async () => {
    const file = path.join(dir, 'locked.sqlite');
    const engine = new EmbeddedJobEngine({ file, log, pollMs: 20, busyTimeoutMs: 20 });
    const ran: string[] = [];
    try {
      engine.process<string>('q', async (job) => { ran.push(job.data); }, { concurrency: 2, timeoutMs: 5000 });
      await engine.enqueue('q', 'before', { jobId: 'before' });
      await until(() => ran.length === 1, 'the first job');
      assert.deepEqual(engine.health(), { state: 'ok' });
      // Queued while the file is free, due once another process holds its write lock.
      await engine.enqueueMany('q', ['a', 'b', 'c'].map((x) => ({ data: x, opts: { jobId: `late-${x}`, delayMs: 400 } })));
      const other = new Database(file, { timeout: 0 });
      other.exec('begin immediate');
      try {
        await until(() => engine.health().state === 'degraded', 'the engine to say it is degraded');
        assert.match(engine.health().reason ?? '', /locked by another process \(SQLITE_BUSY/);
        await new Promise((r) => setTimeout(r, 600));
        assert.deepEqual(ran, ['before'], 'nothing runs while no claim can be written');
      } finally {
        other.exec('rollback');
        other.close();
      }
      await until(() => ran.length === 4, 'the delayed jobs after the lock is released');
      assert.deepEqual(ran.slice(1).sort(), ['a', 'b', 'c']);
      await until(() => engine.health().state === 'ok', 'the engine to say ok again');
    } finally {
      await engine.close();
    }
  });
});

describe('embedded engine: a jobs file of the old (liteque) layout', () => {
  test('is migrated at open: waiting, delayed and interrupted jobs run with their data and failed attempts; cancelled ones do not', async () => {
    const file = path.join(dir, 'old.sqlite');
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    const db = drizzle(sqlite);
    // As the old adapter did: liteque's claim runs inside drizzle's transaction, which
    // better-sqlite3 ≥ 11.10 refuses for an async function, so transaction(fn) is fn(db).
    const lq = new Proxy(db, { get: (t, p, r) => (p === 'transaction' ? (fn: (tx: unknown) => unknown) => fn(t) : Reflect.get(t, p, r)) }) as unknown as ReturnType<typeof buildDBClient>;
    migrateDB(lq);
    sqlite.exec(`create table embedded_jobs (task_id integer primary key, queue text not null, job_id text not null, allocation_id text,
      failures integer not null default 0, cancelled integer not null default 0, unique (queue, job_id))`);
    const q = new SqliteQueue<{ d: unknown; j: string; a: number; b: number }>('q', lq, { defaultJobArgs: { numRetries: 3 }, keepFailedJobs: false });
    const put = async (j: string, d: string, o: { delayMs?: number; priority?: number } = {}) => {
      const task = await q.enqueue({ d, j, a: 3, b: 100 }, { idempotencyKey: j, numRetries: 3, priority: o.priority ?? 100, delayMs: o.delayMs ?? 0 });
      sqlite.prepare('insert into embedded_jobs (task_id, queue, job_id, allocation_id) values (?, ?, ?, ?)').run(task!.id, 'q', j, task!.allocationId);
      return task!;
    };
    await put('waiting', 'w');
    await put('delayed', 'd', { delayMs: 300 });
    const failedOnce = await put('failed-once', 'f');
    sqlite.prepare('update embedded_jobs set failures = 1 where task_id = ?').run(failedOnce.id);
    const cancelled = await put('cancelled', 'c');
    sqlite.prepare('update embedded_jobs set cancelled = 1 where task_id = ?').run(cancelled.id);
    // Claimed by a process that then died.
    await put('interrupted', 'i', { priority: 1 });
    assert.ok(await q.attemptDequeue({ timeoutSecs: 600 }));
    sqlite.close();

    const engine = new EmbeddedJobEngine({ file, log, pollMs: 20 });
    const ran: Array<[string, string, number]> = [];
    try {
      engine.process<string>('q', async (job) => { ran.push([job.id, job.data, job.attempt]); }, { concurrency: 1, timeoutMs: 5000 });
      await until(() => ran.length === 4, 'the migrated jobs');
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(ran.sort(), [['delayed', 'd', 1], ['failed-once', 'f', 2], ['interrupted', 'i', 1], ['waiting', 'w', 1]]);
    } finally {
      await engine.close();
    }
    const after = new Database(file, { readonly: true });
    const tables = (after.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{ name: string }>).map((r) => r.name);
    after.close();
    assert.ok(!tables.includes('tasks') && !tables.includes('embedded_jobs'), `old tables gone: ${tables.join(', ')}`);
  });
});
