// How many site scans run at once (src/scans/admission.ts): the controller's steps with a
// scripted event-loop utilisation and no timer (tick() by hand), and the scan service's
// answer when a scan waited for room until its deadline passed.
import { describe, test } from 'node:test';
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

/** Utilisation read from a list, one value per step. */
function scripted(values: number[]) {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

const flush = () => new Promise((r) => setImmediate(r));

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

  test('admission: with room and scans waiting the bound rises by a quarter, at least two, up to max', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, max: 12, intervalMs: 0, utilization: () => 0.3 });
    for (let i = 0; i < 30; i++) void gate.run(s.scan(`s${i}`));
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      gate.tick();
      await flush();
      seen.push(gate.allowed);
    }
    assert.deepEqual(seen, [4, 6, 8, 10, 12, 12, 12]);
    assert.equal(s.started.length, 12);
  });

  test('admission: one quiet step in a busy spell is noise and lets no one in; two in a row make room', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: scripted([1, 1, 1, 0.7, 1, 0.7, 0.7]) });
    for (let i = 0; i < 10; i++) void gate.run(s.scan(`s${i}`));
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      gate.tick();
      seen.push(gate.allowed);
    }
    // Averages: 1, 1, 1, 0.925 (held), 0.944, 0.883 and 0.837 (room twice).
    assert.deepEqual(seen, [2, 2, 2, 2, 2, 4, 6]);
  });

  test('admission: after a quiet spell with nothing running the bound starts again from min', async () => {
    const s = scans();
    const gate = new ScanAdmission({ min: 2, intervalMs: 0, utilization: () => 0.1 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((n) => gate.run(s.scan(n)));
    gate.tick();
    await flush();
    assert.equal(gate.allowed, 4);
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
      const scanner = fakeScanner({ held: true });
      const admission = new ScanAdmission({ min: 1, intervalMs: 0, utilization: () => 1 });
      const svc = buildService({ db: t.db, scanner, admission, deadlineMs: 300 });
      const lead = { name: 'Ada Lovelace', email: 'ada@site-one.com' };
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
});
