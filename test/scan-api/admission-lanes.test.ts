// The background lane (batch items): a person's scan never waits behind background scans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionTimeout, ScanAdmission } from '../../src/scans/admission.ts';

const tick = () => new Promise((r) => setImmediate(r));
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await tick();
}

function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => { release = r; });
  return { release, scan: () => done };
}

/** A background scan as the batch processor runs it: wait for room, then run(). */
async function background(gate: ScanAdmission, started: string[], name: string, scan: () => Promise<void>): Promise<void> {
  await gate.roomForBackground();
  await gate.run(async () => {
    started.push(name);
    await scan();
  }, undefined, { background: true });
}

test('background scans leave `reserve` slots free: a person\'s scan starts at once while the lane is full', async () => {
  const gate = new ScanAdmission({ min: 8, max: 8, intervalMs: 0, utilization: () => 1, reserve: 2 });
  const started: string[] = [];
  const bg = Array.from({ length: 10 }, () => held());
  const running = bg.map((h, i) => background(gate, started, `bg${i}`, h.scan));
  await settle();
  assert.equal(started.length, 6, 'six of eight slots for the lane');
  assert.equal(gate.backgroundWaiting, 4);
  const person = held();
  const personDone = gate.run(async () => {
    started.push('person');
    await person.scan();
  });
  await settle();
  assert.ok(started.includes('person'), 'the person\'s scan started without waiting');
  assert.equal(gate.waiting, 0);
  person.release();
  await personDone;
  for (const h of bg) h.release();
  await Promise.all(running);
  assert.equal(started.filter((s) => s.startsWith('bg')).length, 10, 'every background scan ran in the end');
});

test('a waiting person\'s scan goes before every waiting background scan', async () => {
  const gate = new ScanAdmission({ min: 3, max: 3, intervalMs: 0, utilization: () => 1, reserve: 1 });
  const started: string[] = [];
  const people = Array.from({ length: 4 }, () => held());
  const peopleDone = people.map((h, i) => gate.run(async () => {
    started.push(`p${i}`);
    await h.scan();
  }));
  await settle();
  const bgHeld = held();
  bgHeld.release();
  const bgDone = background(gate, started, 'bg', bgHeld.scan);
  await settle();
  assert.deepEqual(started, ['p0', 'p1', 'p2']);
  people[0]!.release();
  await settle();
  assert.deepEqual(started, ['p0', 'p1', 'p2', 'p3'], 'the waiting person first');
  for (const h of people) h.release();
  await Promise.all(peopleDone);
  await bgDone;
  assert.deepEqual(started.at(-1), 'bg');
});

test('close turns away background scans still waiting', async () => {
  const gate = new ScanAdmission({ min: 2, max: 2, intervalMs: 0, utilization: () => 1, reserve: 2 });
  const waiting = gate.roomForBackground();
  gate.close();
  await assert.rejects(waiting, AdmissionTimeout);
});

test('while a person\'s scan runs, and for holdMs after, the lane lets in only `whilePeople` background scans', async () => {
  let now = 0;
  const gate = new ScanAdmission({ min: 16, max: 16, intervalMs: 0, utilization: () => 0.9, reserve: 2, whilePeople: 2, holdMs: 2000, nowMs: () => now });
  const started: string[] = [];
  const bg = Array.from({ length: 8 }, () => held());
  const running = bg.map((h, i) => background(gate, started, `bg${i}`, h.scan));
  await settle();
  assert.equal(started.length, 8, 'no person: the whole lane');
  const person = held();
  const personDone = gate.run(async () => {
    started.push('person');
    await person.scan();
  });
  await settle();
  assert.ok(started.includes('person'));
  assert.equal(gate.peopleScanning, true);
  const more = Array.from({ length: 4 }, () => held());
  const moreRunning = more.map((h, i) => background(gate, started, `more${i}`, h.scan));
  for (const h of bg.slice(0, 7)) h.release();
  await settle();
  assert.equal(started.filter((s) => s.startsWith('more')).length, 1, 'one running + one let in = whilePeople');
  person.release();
  await personDone;
  now = 1999;
  gate.tick();
  await settle();
  assert.equal(started.filter((s) => s.startsWith('more')).length, 1, 'still held just before holdMs has passed');
  now = 2000;
  gate.tick();
  await settle();
  assert.equal(gate.peopleScanning, false);
  assert.equal(started.filter((s) => s.startsWith('more')).length, 4, 'the lane refills once people are gone');
  bg[7]!.release();
  for (const h of more) h.release();
  await Promise.all([...running, ...moreRunning]);
});

test('a person\'s scan that never started (its signal aborted while waiting) counts as finished for the hold', async () => {
  let now = 0;
  const gate = new ScanAdmission({ min: 1, max: 1, intervalMs: 0, utilization: () => 1, reserve: 1, whilePeople: 1, holdMs: 100, nowMs: () => now });
  const first = held();
  const firstDone = gate.run(first.scan);
  const stop = new AbortController();
  const waiting = gate.run(async () => undefined, stop.signal);
  await settle();
  stop.abort();
  await assert.rejects(waiting, AdmissionTimeout);
  assert.equal(gate.peopleScanning, true, 'the first still runs');
  first.release();
  await firstDone;
  now = 100;
  assert.equal(gate.peopleScanning, false);
});

test('while people scan and the loop mostly idles (background scans of slow sites), the lane grows again one scan a step', async () => {
  let u = 0.9;
  const gate = new ScanAdmission({ min: 16, max: 16, intervalMs: 0, utilization: () => u, reserve: 2, whilePeople: 2, peopleIdle: 0.5 });
  const started: string[] = [];
  const person = held();
  const personDone = gate.run(person.scan);
  const bg = Array.from({ length: 6 }, () => held());
  const running = bg.map((h, i) => background(gate, started, `bg${i}`, h.scan));
  await settle();
  assert.equal(started.length, 2, 'whilePeople');
  gate.tick();
  await settle();
  assert.equal(started.length, 2, 'a busy loop keeps the lane small');
  u = 0.2;
  gate.tick();
  await settle();
  assert.equal(started.length, 3, 'an idle loop: one more');
  gate.tick();
  await settle();
  assert.equal(started.length, 4, 'and one more each step');
  u = 0.9;
  gate.tick();
  await settle();
  assert.equal(started.length, 4, 'busy again: no more let in');
  person.release();
  await personDone;
  for (const h of bg) h.release();
  await Promise.all(running);
});
