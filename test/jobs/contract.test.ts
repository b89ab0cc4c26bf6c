// One suite, both adapters: what src/jobs/port.ts promises holds on liteque (embedded) and
// on BullMQ (distributed) alike.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RetryLater, type JobEngine } from '../../src/jobs/port.ts';
import { engineKinds, until } from './engines.ts';

for (const kind of engineKinds()) {
  describe(`job engine contract: ${kind.name}`, { skip: kind.skip }, () => {
    const open: JobEngine[] = [];
    const engine = () => {
      const e = kind.make();
      open.push(e);
      return e;
    };
    after(async () => {
      await Promise.all(open.map((e) => e.close()));
      await kind.cleanup();
    });

    test('a job runs once with its data, as attempt 1 of its attempts', async () => {
      const e = engine();
      const seen: Array<{ id: string; data: unknown; attempt: number; attempts: number }> = [];
      e.process<{ n: number }>('q', async (job) => { seen.push({ id: job.id, data: job.data, attempt: job.attempt, attempts: job.attempts }); }, { concurrency: 2, timeoutMs: 5000 });
      await e.enqueue('q', { n: 1 }, { jobId: 'job-1', attempts: 4 });
      await until(() => seen.length === 1, 'the job');
      assert.deepEqual(seen, [{ id: 'job-1', data: { n: 1 }, attempt: 1, attempts: 4 }]);
    });

    test('the same id while it waits is a no-op; once finished it may run again', async () => {
      const e = engine();
      const runs: string[] = [];
      await e.enqueue('q', 'first', { jobId: 'dup' });
      await e.enqueue('q', 'second', { jobId: 'dup' });
      await e.enqueueMany('q', [{ data: 'third', opts: { jobId: 'dup' } }, { data: 'other', opts: { jobId: 'other' } }, { data: 'other again', opts: { jobId: 'other' } }]);
      e.process<string>('q', async (job) => { runs.push(job.data); }, { concurrency: 1, timeoutMs: 5000 });
      await until(() => runs.length === 2, 'two runs');
      assert.deepEqual(runs.sort(), ['first', 'other']);
      await e.enqueue('q', 'fourth', { jobId: 'dup' });
      await until(() => runs.length === 3, 'the id run again');
      assert.equal(runs.at(-1), 'fourth');
    });

    test('lower priority runs first among jobs ready together', async () => {
      const e = engine();
      const order: string[] = [];
      await e.enqueue('q', 'low', { jobId: 'p-low', priority: 500 });
      await e.enqueue('q', 'high', { jobId: 'p-high', priority: 1 });
      await e.enqueue('q', 'mid', { jobId: 'p-mid', priority: 100 });
      e.process<string>('q', async (job) => { order.push(job.data); }, { concurrency: 1, timeoutMs: 5000 });
      await until(() => order.length === 3, 'three jobs');
      assert.deepEqual(order, ['high', 'mid', 'low']);
    });

    test('a delayed job does not start before its delay', async () => {
      const e = engine();
      let startedAt = 0;
      e.process('q', async () => { startedAt = Date.now(); }, { concurrency: 1, timeoutMs: 5000 });
      const at = Date.now();
      await e.enqueue('q', {}, { jobId: 'later', delayMs: 1200 });
      await until(() => startedAt > 0, 'the delayed job');
      assert.ok(startedAt - at >= 1150, `started after ${startedAt - at} ms`);
    });

    test('a failing job is retried with exponential backoff, then succeeds', async () => {
      const e = engine();
      const at: Array<[number, number]> = [];
      e.process('q', async (job) => {
        at.push([job.attempt, Date.now()]);
        if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      }, { concurrency: 1, timeoutMs: 5000 });
      await e.enqueue('q', {}, { jobId: 'flaky', attempts: 3, backoffMs: 300 });
      await until(() => at.length === 3, 'three attempts');
      assert.deepEqual(at.map(([a]) => a), [1, 2, 3]);
      assert.ok(at[1]![1] - at[0]![1] >= 290, `first retry after ${at[1]![1] - at[0]![1]} ms`);
      assert.ok(at[2]![1] - at[1]![1] >= 590, `second retry after ${at[2]![1] - at[1]![1]} ms (doubled)`);
    });

    test('a job that fails every attempt reports it once, inside its last run', async () => {
      const e = engine();
      let runs = 0;
      const failed: Array<{ attempt: number; message: string }> = [];
      e.process('q', async () => {
        runs++;
        throw new Error('always');
      }, { concurrency: 1, timeoutMs: 5000, onFailed: async (job, err) => { failed.push({ attempt: job.attempt, message: err.message }); } });
      await e.enqueue('q', {}, { jobId: 'doomed', attempts: 2, backoffMs: 50 });
      await until(() => failed.length === 1, 'the failure report');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(runs, 2);
      assert.deepEqual(failed, [{ attempt: 2, message: 'always' }]);
    });

    test('an onFailed that throws is tried again later, without running the job again', async () => {
      const e = engine();
      let runs = 0;
      const reports: string[] = [];
      e.process('q', async () => {
        runs++;
        throw new Error('broken');
      }, {
        concurrency: 1, timeoutMs: 5000,
        onFailed: async (_job, err) => {
          reports.push(err.message);
          if (reports.length === 1) throw new Error('the database is down');
        },
      });
      await e.enqueue('q', {}, { jobId: 'report-twice', attempts: 1 });
      await until(() => reports.length === 2, 'the failure reported again', 30_000);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(runs, 1, 'the job itself ran once');
      assert.deepEqual(reports, ['broken', 'broken']);
    });

    test('RetryLater puts a job back without using an attempt', async () => {
      const e = engine();
      const attempts: number[] = [];
      e.process('q', async (job) => {
        attempts.push(job.attempt);
        if (attempts.length < 3) throw new RetryLater(100, 'semaphore full');
      }, { concurrency: 1, timeoutMs: 5000 });
      await e.enqueue('q', {}, { jobId: 'patient', attempts: 1 });
      await until(() => attempts.length === 3, 'three runs');
      assert.deepEqual(attempts, [1, 1, 1]);
    });

    test('cancel: a waiting job never starts; a running one finishes', async () => {
      const e = engine();
      const runs: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => { release = r; });
      e.process<string>('q', async (job) => {
        runs.push(`start ${job.data}`);
        if (job.data === 'running') await held;
        runs.push(`end ${job.data}`);
      }, { concurrency: 1, timeoutMs: 10_000 });
      await e.enqueue('q', 'running', { jobId: 'c-running' });
      await until(() => runs.includes('start running'), 'the first job');
      await e.enqueue('q', 'waiting', { jobId: 'c-waiting', delayMs: 500 });
      await e.cancel('q', 'c-waiting');
      await e.cancel('q', 'c-running');
      release();
      await e.enqueue('q', 'marker', { jobId: 'c-marker', delayMs: 900 });
      await until(() => runs.includes('end marker'), 'the marker job');
      assert.deepEqual(runs, ['start running', 'end running', 'start marker', 'end marker']);
    });

    test('a run past its timeout is aborted and counts as a failed attempt', async () => {
      const e = engine();
      const seen: Array<{ attempt: number; aborted?: boolean }> = [];
      e.process('q', async (job) => {
        const entry: { attempt: number; aborted?: boolean } = { attempt: job.attempt };
        seen.push(entry);
        if (job.attempt === 1) {
          await new Promise<void>((r) => job.signal.addEventListener('abort', () => r(), { once: true }));
          entry.aborted = true;
        }
      }, { concurrency: 1, timeoutMs: 300 });
      await e.enqueue('q', {}, { jobId: 'slow', attempts: 2, backoffMs: 10 });
      await until(() => seen.length === 2, 'the retry');
      assert.deepEqual(seen, [{ attempt: 1, aborted: true }, { attempt: 2 }]);
    });

    test('no more than `concurrency` jobs run at once', async () => {
      const e = engine();
      let running = 0;
      let peak = 0;
      let done = 0;
      e.process('q', async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 60));
        running--;
        done++;
      }, { concurrency: 3, timeoutMs: 5000 });
      await e.enqueueMany('q', Array.from({ length: 12 }, (_, i) => ({ data: i, opts: { jobId: `conc-${i}` } })));
      await until(() => done === 12, 'twelve jobs');
      assert.ok(peak <= 3, `peak ${peak}`);
      assert.ok(peak >= 2, `peak ${peak}: jobs never overlapped`);
    });

    test('close lets the running job finish and starts no other', async () => {
      const e = kind.make();
      const runs: string[] = [];
      e.process<string>('q', async (job) => {
        runs.push(`start ${job.data}`);
        await new Promise((r) => setTimeout(r, 300));
        runs.push(`end ${job.data}`);
      }, { concurrency: 1, timeoutMs: 5000 });
      await e.enqueue('q', 'a', { jobId: 'close-a' });
      await until(() => runs.length === 1, 'the first job');
      await e.enqueue('q', 'b', { jobId: 'close-b' });
      await e.close();
      assert.deepEqual(runs, ['start a', 'end a']);
      await assert.rejects(e.enqueue('q', 'c', { jobId: 'close-c' }), /closed/);
    });

    test('bad ids, queue names and priorities are refused before anything is stored', async () => {
      const e = engine();
      for (const opts of [{ jobId: '' }, { jobId: 'a:b' }, { jobId: '12345' }, { jobId: 'x y' }, { jobId: 'ok', priority: 0 }, { jobId: 'ok', priority: 1001 }, { jobId: 'ok', attempts: 0 }]) {
        await assert.rejects(e.enqueue('q', {}, opts), TypeError, JSON.stringify(opts));
      }
      await assert.rejects(e.enqueue('bad queue', {}, { jobId: 'ok' }), TypeError);
    });
  });
}
