// How many site scans run at once (src/scans/admission.ts): the controller's steps with a
// scripted event-loop utilisation and no timer (tick() by hand), and the scan service's
// answer when a scan waited for room until its deadline passed.
import { describe, test } from 'node:test';
import type { Knex } from 'knex';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors.ts';
import { AdmissionTimeout, ScanAdmission } from '../../src/scans/admission.ts';
import { openTestDb } from '../storage/databases.ts';
import { buildService } from './build.ts';
import { fakeScanner } from './fixtures.ts';

/** A scan that runs until finish(name) is called; `started` lists the names in start order. */
function scans() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  return {
    started,
    scan: (name: string) => () => {
      started.push(name);
      return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
    },
    finish: (name: string) => finishers.get(name)!(),
  };
}

/** Utilisation read from a list, one value per step (the last one repeats). */
function scripted(values: number[]) {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

const flush = () => new Promise((r) => setImmediate(r));

/** `n` controller steps, each followed by the scans it let in starting; the bound after each. */
async function steps(gate: ScanAdmission, n: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) {
    gate.tick();
    await flush();
    seen.push(gate.allowed);
  }
  return seen;
}

const lead = { name: 'Ada Lovelace', email: 'ada@site-one.com' };

/** A scan service with room for one scan and a loop that reads as saturated; its scans hold until released. */
function oneAtATime(db: Knex, deadlineMs: number) {
  const scanner = fakeScanner({ held: true });
  const admission = new ScanAdmission({ min: 1, intervalMs: 0, utilization: () => 1 });
  return { scanner, svc: buildService({ db, scanner, admission, deadlineMs }) };
}

describe('scan admission', () => {
  test('admission: lets in `min` scans at once and the rest in arrival order', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: () => 1 });
    const done = ['a', 'b', 'c', 'd'].map((n) => gate.run(s.scan(n)));
    await flush();
    assert.deepEqual(s.started, ['a', 'b']);
    assert.equal(gate.running, 2);
    assert.equal(gate.waiting, 2);
    s.finish('b');
    await flush();
    assert.deepEqual(s.started, ['a', 'b', 'c']);
    s.finish('a');
    s.finish('c');
    await flush();
    s.finish('d');
    assert.deepEqual(await Promise.all(done), ['a', 'b', 'c', 'd']);
  });

  test('admission: while the loop is busy the bound stays where the running scans are', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: () => 0.97 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) void gate.run(s.scan(n));
    await flush();
    for (let i = 0; i < 5; i++) gate.tick();
    await flush();
    assert.equal(gate.allowed, 2);
    assert.deepEqual(s.started, ['a', 'b']);
  });

  test('admission: idle time while scans wait raises the bound in proportion to it, at least two, up to max', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, max: 40, intervalMs: 0, utilization: () => 0.85 });
    for (let i = 0; i < 60; i++) void gate.run(s.scan(`s${i}`));
    const seen = await steps(gate, 6);
    // Twice the shortfall from 0.95 is a fifth of the bound, and at least 2: +2 five times, then +3.
    assert.deepEqual(seen, [4, 6, 8, 10, 12, 15]);
    assert.equal(s.started.length, 15);
    const idle = new ScanAdmission({ min: 2, max: 40, intervalMs: 0, utilization: () => 0.15 });
    for (let i = 0; i < 60; i++) void idle.run(s.scan(`t${i}`));
    idle.tick();
    idle.tick();
    idle.tick();
    assert.equal(idle.allowed, 40, 'a loop idle most of the time lets a burst in within a few steps: 2, 6, 17, then max');
  });

  test('admission: a loop saturated three steps in a row sheds a tenth of the bound each step, down to min', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 4, intervalMs: 0, utilization: scripted([0.5, 0.5, 1, 1, 1, 1, 1, 0.97, 1, 1, 1]) });
    for (let i = 0; i < 60; i++) void gate.run(s.scan(`s${i}`));
    const seen = await steps(gate, 11);
    // Room twice (4 → 8 → 16); saturated: held twice, then 14, 12, 10; busy but not saturated
    // holds and starts the count again; three saturated steps more shed again.
    assert.deepEqual(seen, [8, 16, 16, 16, 14, 12, 10, 10, 10, 10, 9]);
    assert.equal(gate.running, 16, 'shedding never stops a running scan; the bound only lets fewer in');
  });

  test('admission: with nothing waiting the bound keeps room for twice the scans running', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: scripted([0.1, 0.1, 0.5]) });
    const all = Array.from({ length: 12 }, (_, i) => gate.run(s.scan(`s${i}`)));
    gate.tick();
    gate.tick();
    await flush();
    assert.equal(s.started.length, 12);
    assert.equal(gate.allowed, 17, '2, then 6, then 17: more than run');
    for (let i = 0; i < 9; i++) s.finish(`s${i}`);
    await flush();
    gate.tick();
    assert.equal(gate.allowed, 6, 'three running, none waiting');
    for (let i = 9; i < 12; i++) s.finish(`s${i}`);
    await Promise.all(all);
  });

  test('admission: after a quiet spell with nothing running the bound starts again from min', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: () => 0.1 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((n) => gate.run(s.scan(n)));
    gate.tick();
    await flush();
    assert.equal(gate.allowed, 6);
    for (const n of ['a', 'b', 'c', 'd']) s.finish(n);
    await flush();
    s.finish('e');
    await Promise.all(all);
    gate.tick();
    assert.equal(gate.allowed, 2);
  });

  test('admission: a scan whose deadline passes while it waits is refused at once and never starts', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 1, intervalMs: 0, utilization: () => 1 });
    const first = gate.run(s.scan('first'));
    const deadline = new AbortController();
    const late = gate.run(s.scan('late'), deadline.signal);
    const next = gate.run(s.scan('next'));
    deadline.abort();
    await assert.rejects(late, AdmissionTimeout);
    s.finish('first');
    await first;
    await flush();
    assert.deepEqual(s.started, ['first', 'next'], 'the refused scan never ran; its turn passed to the next');
    s.finish('next');
    await next;
  });

  test('admission: a deadline that passes after the scan was let in is the scan\'s own business', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 1, intervalMs: 0, utilization: () => 1 });
    const deadline = new AbortController();
    const running = gate.run(s.scan('running'), deadline.signal);
    await flush();
    deadline.abort();
    s.finish('running');
    assert.equal(await running, 'running');
  });

  test('scan service: a scan still waiting for room at its deadline is a 502 saying the service was busy, and the scan never runs', async () => {
    const t = await openTestDb('sqlite');
    try {
      const { scanner, svc } = oneAtATime(t.db, 300);
      const first = svc.scan({ domain: 'first-site.com', lead, clientIp: '198.51.100.7' });
      const second = svc.scan({ domain: 'second-site.com', lead, clientIp: '198.51.100.8' });
      await assert.rejects(second, (e: unknown) => {
        assert.ok(e instanceof AppError);
        assert.equal(e.status, 502);
        assert.match(JSON.stringify(e.body), /busy with other scans/);
        return true;
      });
      assert.deepEqual(scanner.calls, ['first-site.com']);
      scanner.release();
      await first.catch(() => undefined);
    } finally {
      await t.close();
    }
  });

  test('scan service: the progress of a scan that waits for room says so, and says when it starts; one let in at once never hears it', async () => {
    const t = await openTestDb('sqlite');
    try {
      const { scanner, svc } = oneAtATime(t.db, 60_000);
      const heard = { first: [] as string[], second: [] as string[] };
      const first = svc.scan({ domain: 'first-site.com', lead, clientIp: '198.51.100.7', onProgress: (u) => heard.first.push(`${u.phase}:${u.status}`) });
      const second = svc.scan({ domain: 'second-site.com', lead, clientIp: '198.51.100.8', onProgress: (u) => heard.second.push(`${u.phase}:${u.status}`) });
      for (let i = 0; i < 20 && heard.second.length === 0; i++) await flush();
      assert.deepEqual(heard.second, ['queued:running']);
      assert.deepEqual(scanner.calls, ['first-site.com']);
      scanner.release();
      await Promise.all([first, second]);
      assert.deepEqual(heard.second, ['queued:running', 'queued:done']);
      assert.deepEqual(heard.first, []);
    } finally {
      await t.close();
    }
  });
});
