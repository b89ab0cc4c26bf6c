// The web form's progress across instances through a real Redis: the form post on one
// instance, the browser's stream on another (a load balancer without sticky sessions).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ProgressBoard, type BoardEvent } from '../../src/scans/progress-board.ts';
import { progressSubscriber, RedisProgressShare } from '../../src/scans/progress-share.ts';

const url = process.env.TEST_REDIS_URL;
if (!url) console.warn('SKIPPING progress-sharing tests: TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379)');

const run = randomBytes(4).toString('hex');
const prefix = `t${run}:`;
const clients: Redis[] = [];
const shares: RedisProgressShare[] = [];

/** One instance: its board, shared through its own two Redis connections. */
async function instance(onSubscriber?: (subscriber: Redis) => Promise<void>): Promise<ProgressBoard> {
  const redis = new Redis(url!, { keyPrefix: prefix, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const subscriber = progressSubscriber(redis);
  clients.push(redis, subscriber);
  await onSubscriber?.(subscriber);
  const board = new ProgressBoard();
  const share = new RedisProgressShare({ redis, subscriber, channel: `${prefix}progress`, ttlMs: 60_000, log: pino({ level: 'silent' }) });
  shares.push(share);
  board.share(share);
  await share.start((id, e) => board.apply(id, e));
  return board;
}

/** A stream on `board`: every event it gets, and a promise of its end. */
function stream(board: ProgressBoard, id: string) {
  const events: BoardEvent[] = [];
  let closed!: () => void;
  const ended = new Promise<void>((r) => (closed = r));
  board.watch(id, { send: (e) => events.push(e), close: () => closed() });
  return { events, ended };
}

/** Waits for a condition (a message crossing Redis), bounded by the test's own timeout. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

const phase = (phase: string, done: number, total: number) => ({ phase, status: done === total ? 'done' : 'running', done, total }) as never;
const shown = (events: BoardEvent[]) => events.map((e) => (e.type === 'phase' ? `${e.update.phase} ${e.update.done}/${e.update.total}` : `end ${e.outcome}`));

describe('progress shared between instances through Redis', { skip: url ? false : 'TEST_REDIS_URL is not set', timeout: 60_000 }, () => {
  after(async () => {
    for (const s of shares) s.stop();
    const admin = new Redis(url!);
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
    for (const c of clients) c.disconnect();
  });

  test('progress share: a stream on another instance sees the scan live, in order, and its end', async () => {
    const [a, b] = [await instance(), await instance()];
    const id = randomUUID();
    const s = stream(b, id);
    const r = a.reporter(id);
    r.update(phase('robots', 1, 2));
    // Live: the stream hears the first count while the scan is still running.
    await until(() => shown(s.events).includes('robots 1/2'));
    r.update(phase('robots', 2, 2));
    r.update(phase('grid-networkA', 3, 30));
    r.end('complete');
    await s.ended;
    assert.deepEqual(shown(s.events), ['robots 1/2', 'robots 2/2', 'grid-networkA 3/30', 'end complete']);
  });

  test('progress share: when Redis drops the subscriber\'s connection, the share subscribes again itself and hears the others', async () => {
    let subscriberId = 0;
    const [a, b] = [await instance(), await instance(async (sub) => {
      if (sub.status !== 'ready') await once(sub, 'ready'); // no offline queue: commands wait for the connection
      subscriberId = Number(await sub.client('ID'));
    })];
    const id = randomUUID();
    const s = stream(b, id);
    const r = a.reporter(id);
    r.update(phase('robots', 1, 2));
    await until(() => shown(s.events).includes('robots 1/2'));
    const admin = new Redis(url!);
    try {
      assert.equal(await admin.client('KILL', 'ID', String(subscriberId)), 1);
    } finally {
      admin.disconnect();
    }
    // ioredis reconnects; its own resubscription is off (progressSubscriber), so hearing the
    // next counts proves the share's own 'ready' handler subscribed again.
    for (let done = 2; !shown(s.events).some((e) => e.startsWith('grid-networkA')); done++) {
      r.update(phase('grid-networkA', done, 1000));
      await new Promise((res) => setTimeout(res, 20));
    }
  });

  test('progress share: a stream opened after the scan ended elsewhere is replayed from Redis', async () => {
    const [a, b] = [await instance(), await instance()];
    const id = randomUUID();
    const r = a.reporter(id);
    r.update(phase('grid-networkB', 30, 30));
    r.update(phase('robots', 2, 2));
    r.end('failed');
    // Publishing is fire-and-forget; wait until Redis holds the end, as a late browser would find it.
    const probe = new Redis(url!, { keyPrefix: prefix });
    clients.push(probe);
    while ((await probe.hget(`progress:${id}`, 'end')) === null) await new Promise((res) => setTimeout(res, 5));
    const s = stream(b, id);
    await s.ended;
    // Replayed in the order a scan runs its phases, whatever order they were reported in.
    assert.deepEqual(shown(s.events), ['robots 2/2', 'grid-networkB 30/30', 'end failed']);
  });

  test('progress share: the instance that runs the scan ignores what others say about its id', async () => {
    const a = await instance();
    const id = randomUUID();
    const local = stream(a, id);
    const ra = a.reporter(id);
    ra.update(phase('robots', 1, 2));
    // An older update arriving from elsewhere must not move the count back or end the stream.
    a.apply(id, { type: 'phase', update: phase('robots', 0, 2) });
    a.apply(id, { type: 'end', outcome: 'failed' });
    ra.end('complete');
    await local.ended;
    assert.deepEqual(shown(local.events), ['robots 1/2', 'end complete']);
  });

  test('progress share: a replayed count older than one already shown is dropped', () => {
    const board = new ProgressBoard();
    const id = randomUUID();
    const s = stream(board, id);
    board.apply(id, { type: 'phase', update: phase('files', 5, 20) });
    board.apply(id, { type: 'phase', update: phase('files', 3, 20) });
    board.apply(id, { type: 'phase', update: phase('files', 5, 20) });
    board.apply(id, { type: 'phase', update: phase('files', 6, 20) });
    assert.deepEqual(shown(s.events), ['files 5/20', 'files 6/20']);
  });
});
