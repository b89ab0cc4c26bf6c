// The web form's progress board is bounded and lets go: ids beyond its size are dropped with
// their streams, a fifth stream on one id ends the oldest, a malformed id reports nowhere,
// drain() ends only streams no scan reports to, and stop() ends every one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ProgressBoard, type BoardEvent, type BoardWatcher } from '../../src/scans/progress-board.ts';

function watcher(): BoardWatcher & { events: BoardEvent[]; closed: boolean } {
  const w = { events: [] as BoardEvent[], closed: false, send: (e: BoardEvent) => { w.events.push(e); }, close: () => { w.closed = true; } };
  return w;
}

test('a stream opened late replays the latest of each phase, then the end, and closes', () => {
  const board = new ProgressBoard();
  const id = randomUUID();
  const r = board.reporter(id);
  r.update({ phase: 'robots', status: 'running', done: 0, total: 2 });
  r.update({ phase: 'grid-networkA', status: 'running', done: 0, total: 3 });
  r.update({ phase: 'robots', status: 'done', done: 2, total: 2 });
  r.end('complete');
  r.update({ phase: 'scoring', status: 'done', done: 1, total: 1 });
  const w = watcher();
  board.watch(id, w);
  assert.deepEqual(w.events, [
    { type: 'phase', update: { phase: 'robots', status: 'done', done: 2, total: 2 } },
    { type: 'phase', update: { phase: 'grid-networkA', status: 'running', done: 0, total: 3 } },
    { type: 'end', outcome: 'complete' },
  ]);
  assert.equal(w.closed, true);
});

test('a malformed id reports nowhere', () => {
  const board = new ProgressBoard();
  for (const bad of [undefined, '', 'x', randomUUID().toUpperCase(), '6ba7b810-9dad-11d1-80b4-00c04fd430c8']) {
    board.reporter(bad).update({ phase: 'robots', status: 'running', done: 0, total: 2 });
    if (bad) assert.deepEqual(board.phases(bad), []);
  }
});

test('ids beyond the board size are dropped with their streams; a fifth stream on an id ends the oldest', () => {
  const board = new ProgressBoard({ maxIds: 2, maxStreamsPerId: 4 });
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  const wa = watcher();
  board.watch(a, wa);
  board.watch(b, watcher());
  board.watch(c, watcher());
  assert.equal(wa.closed, true, 'the least recently used id went, and its stream ended');
  const ws = [watcher(), watcher(), watcher(), watcher(), watcher()];
  for (const w of ws) board.watch(c, w);
  assert.equal(board.streams(c), 4);
  assert.deepEqual(ws.map((w) => w.closed), [true, false, false, false, false]);
});

test('drain ends the streams no scan reports to; stop ends the rest and refuses new ones', () => {
  const board = new ProgressBoard();
  const [idle, busy] = [randomUUID(), randomUUID()];
  const wi = watcher();
  const wb = watcher();
  board.watch(idle, wi);
  board.watch(busy, wb);
  const r = board.reporter(busy);
  board.drain();
  assert.deepEqual([wi.closed, wb.closed], [true, false]);
  r.update({ phase: 'robots', status: 'running', done: 0, total: 2 });
  assert.equal(wb.events.length, 1, 'the running scan still reports');
  board.stop();
  assert.equal(wb.closed, true);
  const late = watcher();
  board.watch(busy, late);
  assert.equal(late.closed, true);
});
