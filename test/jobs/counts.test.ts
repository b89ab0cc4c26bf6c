// counts() (the /metrics queue gauges) on both engines: jobs ready, running and due later per
// queue, read from the shared backend, so a second engine on the same queues (another
// instance) reports the same; a queue with no jobs reports zeros.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engineKinds } from './engines.ts';
import { until } from '../watches/fakes.ts';

for (const kind of engineKinds()) {
  describe(`job engine counts: ${kind.name}`, { skip: kind.skip }, () => {
    after(() => kind.cleanup());

    test('waiting, active and delayed per queue; the same from a second engine on the backend', async () => {
      const shared = `counts-${Date.now()}`;
      const a = kind.make(shared);
      // The embedded engine's queue file is its instance's own (in memory here): read it back from the same engine.
      const b = kind.name === 'distributed' ? kind.make(shared) : a;
      try {
        await a.enqueue('work', { n: 1 }, { jobId: 'w1' });
        await a.enqueue('work', { n: 2 }, { jobId: 'w2', priority: 5 });
        await a.enqueue('work', { n: 3 }, { jobId: 'w3', delayMs: 600_000 });
        assert.deepEqual(await b.counts(['work', 'idle']), [
          { queue: 'work', waiting: 2, active: 0, delayed: 1 },
          { queue: 'idle', waiting: 0, active: 0, delayed: 0 },
        ]);
        const release = Promise.withResolvers<void>();
        let running = 0;
        a.process<{ n: number }>('work', async () => {
          running++;
          await release.promise;
        }, { concurrency: 1, timeoutMs: 30_000 });
        await until(() => running === 1, 'one job running');
        await until(async () => (await b.counts(['work']))[0]!.active === 1, 'the running job counted as active');
        assert.deepEqual(await b.counts(['work']), [{ queue: 'work', waiting: 1, active: 1, delayed: 1 }]);
        release.resolve();
        await until(async () => (await b.counts(['work']))[0]!.waiting === 0 && (await b.counts(['work']))[0]!.active === 0, 'both ready jobs done');
        assert.deepEqual(await b.counts(['work']), [{ queue: 'work', waiting: 0, active: 0, delayed: 1 }]);
      } finally {
        await a.close();
        if (b !== a) await b.close();
      }
    });
  });
}
