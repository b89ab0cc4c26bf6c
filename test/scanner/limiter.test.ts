// The per-site politeness bound (src/scanner/probe.ts Limiter, p-limit underneath): callers
// arriving while a slot is being handed to a waiter must queue, never slip in beside it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter } from '../../src/scanner/probe.ts';

/** A task that stays in flight until released, counting concurrent runs. */
function gate(counter: { now: number; peak: number }) {
  let open!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  const task = async () => {
    counter.now++;
    counter.peak = Math.max(counter.peak, counter.now);
    await opened;
    counter.now--;
  };
  return { task, open };
}

describe('politeness limiter', () => {
  test('a newcomer arriving as a slot is released queues behind the waiter instead of exceeding the bound', async () => {
    const counter = { now: 0, peak: 0 };
    const limiter = new Limiter(1);
    const a = gate(counter);
    const b = gate(counter);
    const c = gate(counter);
    const runA = limiter.run(a.task);
    const runB = limiter.run(b.task);
    a.open();
    await runA;
    // A has finished and B was woken; C arrives in the same turn of the event loop.
    const runC = limiter.run(c.task);
    b.open();
    c.open();
    await Promise.all([runB, runC]);
    assert.equal(counter.peak, 1, `peak concurrency ${counter.peak} with a bound of 1`);
  });

  test('many overlapping callers never exceed the bound and all complete', async () => {
    const counter = { now: 0, peak: 0 };
    const limiter = new Limiter(3);
    const gates = Array.from({ length: 20 }, () => gate(counter));
    const runs = gates.map((g) => limiter.run(g.task));
    for (const g of gates) {
      g.open();
      await Promise.resolve();
      limiter.run(async () => { counter.now++; counter.peak = Math.max(counter.peak, counter.now); counter.now--; });
    }
    await Promise.all(runs);
    assert.ok(counter.peak <= 3, `peak concurrency ${counter.peak} with a bound of 3`);
  });
});
