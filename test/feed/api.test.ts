// listChanges over HTTP against the contract (every status), on the real app: SQLite, the
// embedded job engine, the real watch runner (WATCH_INTERVAL_S=2) and a fake scan engine whose
// headline flips on every scan, so every run after the baseline is a readiness.changed event.
// The events are compared with what the webhook carried (a recording stand-in for delivery).
// Last, a restart: a new service on the same SQLite file honours a cursor the old one gave.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { cannedReport, fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { recordingDeliveries, until, type RecordingDeliveries } from '../watches/fakes.ts';

const OPERATOR = 'operator-token-for-feed-tests';
const lead = { name: 'Ada', email: 'ada@feed-site.com' };

describe('listChanges over HTTP', () => {
  let t: TestApp;
  let deliveries: RecordingDeliveries;
  let keyA: string;
  let keyB: string;
  const watchA: string[] = [];
  let watchB = '';
  let offset = 0;
  const scanner = fakeScanner({
    make: (domain) => cannedReport(domain, scanner.calls.filter((c) => c === domain).length % 2 === 0 ? { headline: 'agent-hostile' } : {}),
  });
  const get = (q: string, key?: string) => {
    const r = request(t.app).get(`/changes${q}`);
    return key ? r.set('Authorization', `Bearer ${key}`) : r;
  };

  before(async () => {
    deliveries = recordingDeliveries();
    t = await testApp({ LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '2', COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '100/60', OPERATOR_TOKEN: OPERATOR }, {}, {
      scanner, scans: { resolve: fakeResolver() }, deliveries,
    });
    t.ctx.now = () => new Date(Date.now() + offset);
    keyA = (await t.services.keys.create('Feed A', 1000)).key;
    keyB = (await t.services.keys.create('Feed B', 1000)).key;
    for (const domain of ['one.feed-site.com', 'two.feed-site.com']) {
      const r = await request(t.app).post('/watches').set('Authorization', `Bearer ${keyA}`)
        .send({ domain, lead, every: 'day', notify: { email: false, webhookUrl: 'https://hooks.feed-site.com/in' } }).expect(202);
      watchA.push(r.body.watchId);
    }
    // B's watch has no webhook (it alerts by mail): the feed carries its events all the same.
    watchB = (await request(t.app).post('/watches').set('Authorization', `Bearer ${keyB}`).send({ domain: 'three.feed-site.com', lead, every: 'day' }).expect(202)).body.watchId;
    const events = async (w: string) => (await t.ctx.db('change_events').where({ watch_id: w })).length;
    await until(async () => (await events(watchA[0]!)) >= 2 && (await events(watchA[1]!)) >= 2 && (await events(watchB)) >= 1, 'two events of each of A\'s watches and one of B\'s', 120_000);
  });
  after(async () => {
    for (const w of watchA) await request(t.app).delete(`/watches/${w}`).set('Authorization', `Bearer ${keyA}`);
    await request(t.app).delete(`/watches/${watchB}`).set('Authorization', `Bearer ${keyB}`);
    await t?.close();
  });

  test('401 without a key, with an unknown one', async () => {
    const none = await get('').expect(401).expect(conforms);
    assert.match(String(none.headers['www-authenticate']), /^Bearer /);
    await get('', 'ark_' + 'x'.repeat(43)).expect(401).expect(conforms);
    // A revoked key is refused at once, and its events with it.
    const revoked = await t.services.keys.create('Revoked', 10);
    await get('', revoked.key).expect(200).expect(conforms);
    await t.services.keys.revoke(revoked.keyId);
    const gone = await get('', revoked.key).expect(401).expect(conforms);
    assert.match(gone.body.error, /revoked/);
  });

  test('200: the key\'s events oldest first, each the body its webhook carried; another key\'s never', async () => {
    const res = await get('?limit=500', keyA).expect(200).expect(conforms);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(res.headers['ratelimit']);
    const events = res.body.events as Array<{ id: string; watchId: string }>;
    assert.ok(events.length >= 4);
    assert.ok(events.every((e) => watchA.includes(e.watchId)), 'only A\'s watches');
    const period = (id: string) => Number(id.split('.').at(-1));
    for (const w of watchA) {
      const mine = events.filter((e) => e.watchId === w).map((e) => period(e.id));
      assert.deepEqual(mine, [...mine].sort((a, b) => a - b), 'a watch\'s events oldest first');
    }
    for (const e of events) {
      const hook = deliveries.sent.find((s) => s.event.id === e.id);
      assert.ok(hook, `the webhook carried ${e.id}`);
      assert.deepEqual(e, JSON.parse(JSON.stringify(hook.event)), 'the same body as the webhook');
    }
    const b = await get('', keyB).expect(200).expect(conforms);
    assert.ok(b.body.events.length >= 1);
    assert.ok(b.body.events.every((e: { watchId: string }) => e.watchId === watchB));
    assert.deepEqual(deliveries.sent.filter((s) => s.watchId === watchB), [], 'B had no webhook, yet its feed has its events');
  });

  test('the cursor: paging one at a time walks every event once; nextCursor then returns only newer ones', async () => {
    const all = (await get('?limit=500', keyA).expect(200)).body as { events: Array<{ id: string }>; nextCursor: string };
    const walked: string[] = [];
    let since = '';
    for (;;) {
      const page = await get(`?limit=1${since ? `&since=${since}` : ''}`, keyA).expect(200).expect(conforms);
      walked.push(...page.body.events.map((e: { id: string }) => e.id));
      since = page.body.nextCursor;
      if (!page.body.hasMore) break;
    }
    const allIds = all.events.map((e) => e.id);
    assert.deepEqual(walked.slice(0, allIds.length), allIds, 'the same events in the same order, none twice');
    // Newer events arrive as the watches keep running; a stored cursor returns only those.
    const before = new Set(walked);
    await until(async () => (await get(`?since=${since}`, keyA).expect(200)).body.events.length > 0, 'a newer event', 60_000);
    const newer = await get(`?since=${since}`, keyA).expect(200).expect(conforms);
    assert.ok(newer.body.events.every((e: { id: string }) => !before.has(e.id)), 'nothing already seen');
    assert.notEqual(newer.body.nextCursor, since);
  });

  test('400: a cursor not issued here, a limit out of range', async () => {
    for (const q of ['?since=not-a-cursor!', `?since=${Buffer.from('cf1:99999999999').toString('base64url')}`, `?since=${Buffer.from('cf1:01').toString('base64url')}`, '?limit=0', '?limit=501', '?limit=ten']) {
      const r = await get(q, keyA).expect(400).expect(conforms);
      assert.ok(r.body.error, q);
    }
  });

  test('the operator reads every key\'s events', async () => {
    const r = await get('?limit=500', OPERATOR).expect(200).expect(conforms);
    const watches = new Set(r.body.events.map((e: { watchId: string }) => e.watchId));
    assert.ok(watches.has(watchB) && watches.has(watchA[0]));
  });

  test('410: a cursor older than the events kept; without `since` the feed starts again at the oldest kept', async () => {
    const old = (await get('?limit=1', keyA).expect(200)).body.nextCursor as string;
    offset += 32 * 86_400_000; // 32 days on: past the 30 days kept (and the day's margin)
    assert.ok(await t.services.changes.prune() > 0);
    const gone = await get(`?since=${old}`, keyA).expect(410).expect(conforms);
    assert.match(gone.body.error, /30 days/);
    assert.match(gone.body.hint, /without `since`/);
    const fresh = await get('', keyA).expect(200).expect(conforms);
    assert.ok(fresh.body.nextCursor);
    await get(`?since=${fresh.body.nextCursor}`, keyA).expect(200).expect(conforms);
  });
});

describe('listChanges after a restart', () => {
  const event = (n: number) => ({
    id: `evt-7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a1b.${n}`, type: 'readiness.changed' as const, watchId: '7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a1b', domain: 'restart.feed-site.com',
    from: { scanId: '7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a10', headline: 'open' as const, score: 90, reportUrl: 'http://agent-readiness.test/r/7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a10' },
    to: { scanId: '7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a11', headline: 'agent-hostile' as const, score: 40, reportUrl: 'http://agent-readiness.test/r/7d3f5d52-1b0c-4c3e-9a55-0c6c1c2f0a11' },
    changes: [{ kind: 'headline' as const, text: 'The headline changed.' }], diffUrl: 'http://agent-readiness.test/r/a/diff/b',
  });
  let dir = '';
  let env: Record<string, string> = {};
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-feed-restart-'));
    env = { LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${path.join(dir, 'feed.sqlite')}` };
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a cursor from before the restart returns only the events recorded after it', async () => {
    const first = await testApp(env);
    const { key, keyId } = await first.services.keys.create('Restart', 10);
    await first.services.changes.record(keyId, event(1));
    const cursor = (await request(first.app).get('/changes').set('Authorization', `Bearer ${key}`).expect(200).expect(conforms)).body.nextCursor;
    await first.close();
    const second = await testApp(env);
    try {
      await second.services.changes.record(keyId, event(2));
      const res = await request(second.app).get(`/changes?since=${cursor}`).set('Authorization', `Bearer ${key}`).expect(200).expect(conforms);
      assert.deepEqual(res.body.events.map((e: { id: string }) => e.id), [event(2).id]);
    } finally {
      await second.close();
    }
  });

  test('the sweep runs on the job engine at start: an event recorded 40 days ago is deleted by itself', async () => {
    const own = { ...env, DATABASE_URL: `sqlite:${path.join(dir, 'sweep.sqlite')}` };
    const first = await testApp(own);
    const { keyId } = await first.services.keys.create('Old events', 10);
    first.ctx.now = () => new Date(Date.now() - 40 * 86_400_000);
    await first.services.changes.record(keyId, event(3));
    first.ctx.now = () => new Date();
    await first.services.changes.record(keyId, event(4));
    await first.close();
    const second = await testApp(own);
    try {
      await until(async () => (await second.ctx.db('change_events').where({ event_id: event(3).id })).length === 0, 'the start\'s sweep deleting the old event', 30_000);
      assert.equal((await second.ctx.db('change_events').where({ event_id: event(4).id })).length, 1, 'a recent one stays');
    } finally {
      await second.close();
    }
  });
});
