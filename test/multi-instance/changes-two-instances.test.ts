// Acceptance, distributed: listChanges across two instances on one PostgreSQL and one Redis
// (BullMQ). Both instances run the same key's watches (WATCH_INTERVAL_S=2; a fake scan engine
// whose headline flips on every scan of a domain, so every run after the baseline is a
// readiness.changed event), and so both record events, concurrently. Meanwhile a reader
// follows its cursor in small pages, asking the two instances in turn. At the end it has read
// every event of the key exactly once, in the feed's order, with none of another key's: no
// duplicates, no gaps, the cursor honoured whichever instance answered.
//
// The two instances are two services in this process (each its own database pool, Redis
// connections, BullMQ workers and registry), so which one recorded an event can be seen.
// Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped loudly without them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import knex from 'knex';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { createDatabase, dropDatabase } from '../helpers/pg-database.ts';
import { cannedReport, fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { until } from '../watches/fakes.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean).join(' and ');
const skip = missing ? `${missing} not set: the two-instance change feed test needs a shared PostgreSQL and Redis` : undefined;
if (skip) console.warn(`SKIPPING ${skip}`);
const run = randomBytes(4).toString('hex');
const WATCHES = 6;

describe('listChanges across two instances on PostgreSQL and Redis: every event once, in order', { skip }, () => {
  const dbName = `changes_mi_${run}`;
  const prefix = `test-changes-mi-${run}:`;
  const instances: TestApp[] = [];
  const recordedBy = new Map<string, 'A' | 'B'>();
  // One count of scans per domain across both instances: each scan's headline is the other one.
  const scans = new Map<string, number>();
  const make = (domain: string) => {
    const n = (scans.get(domain) ?? 0) + 1;
    scans.set(domain, n);
    return cannedReport(domain, n % 2 === 0 ? { headline: 'agent-hostile' } : {});
  };
  let key = '';
  let otherKey = '';

  before(async () => {
    const url = await createDatabase(DB!, dbName);
    for (const name of ['A', 'B'] as const) {
      const t = await testApp({
        DATABASE_URL: url, REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'silent', WATCH_INTERVAL_S: '2', COALESCE_WINDOW_S: '0',
        RATE_LIMIT_PER_DOMAIN: '600/60', JOB_LEASE_MS: '5000', WORKER_CONCURRENCY: '4',
      }, {}, { scanner: fakeScanner({ make }), scans: { resolve: fakeResolver() } });
      const feed = t.services.changes;
      const record = feed.record.bind(feed);
      feed.record = async (keyId, event) => {
        recordedBy.set(event.id, name);
        return record(keyId, event);
      };
      instances.push(t);
    }
    key = (await instances[0]!.services.keys.create('Feed partner', 5000)).key;
    otherKey = (await instances[1]!.services.keys.create('Someone else', 5000)).key;
  });
  after(async () => {
    for (const t of instances) await t.close().catch(() => undefined);
    const redis = new Redis(REDIS!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await dropDatabase(DB!, dbName);
  });

  test('events recorded by both instances, read through both, each once and in order', { timeout: 300_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < WATCHES; i++) {
      const via = instances[i % 2]!;
      const r = await request(via.app).post('/watches').set('Authorization', `Bearer ${key}`)
        .send({ domain: `w${i}.feed-mi.com`, lead: { name: 'Ada', email: 'ada@feed-mi.com' }, every: 'day', notify: { email: false, webhookUrl: 'https://hooks.feed-mi.com/in' } }).expect(202);
      ids.push(r.body.watchId);
    }
    const other = await request(instances[1]!.app).post('/watches').set('Authorization', `Bearer ${otherKey}`)
      .send({ domain: 'other.feed-mi.com', lead: { name: 'Bo', email: 'bo@feed-mi.com' }, every: 'day' }).expect(202);

    // The reader: small pages, alternating instances, following the cursor while events keep coming.
    const read: string[] = [];
    let cursor: string | undefined;
    let turn = 0;
    const page = async () => {
      const t = instances[turn++ % 2]!;
      const res = await request(t.app).get(`/changes?limit=3${cursor ? `&since=${cursor}` : ''}`).set('Authorization', `Bearer ${key}`).expect(200).expect(conforms);
      read.push(...res.body.events.map((e: { id: string; watchId: string }) => {
        assert.ok(ids.includes(e.watchId), 'only this key\'s watches');
        return e.id;
      }));
      cursor = res.body.nextCursor;
      return res.body.hasMore as boolean;
    };
    const both = () => new Set(recordedBy.values()).size === 2;
    await until(async () => {
      await page();
      return read.length >= 30 && both();
    }, 'thirty events read, recorded by both instances', 240_000);

    // Stop the watches, let the runs in flight settle, then catch up.
    for (const id of ids) await request(instances[0]!.app).delete(`/watches/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
    await request(instances[1]!.app).delete(`/watches/${other.body.watchId}`).set('Authorization', `Bearer ${otherKey}`).expect(200);
    const db = knex({ client: 'pg', connection: (await createUrl()) });
    try {
      await until(async () => Number((await db('watch_runs').where({ state: 'running' }).count({ n: '*' }))[0]!.n) === 0, 'no run in flight', 60_000);
      while (await page()) { /* drain */ }
      await page();
      const stored = (await db('change_events').whereIn('watch_id', ids).orderBy('seq').select('event_id')).map((r: { event_id: string }) => r.event_id);
      assert.equal(new Set(read).size, read.length, 'no event read twice');
      assert.deepEqual(read, stored, 'every stored event read, in the feed\'s order: no gaps');
      const byInstance = { A: 0, B: 0 };
      for (const id of read) byInstance[recordedBy.get(id)!]++;
      assert.ok(byInstance.A > 0 && byInstance.B > 0, `events from both instances: ${JSON.stringify(byInstance)}`);
      assert.ok(Number((await db('change_events').where({ watch_id: other.body.watchId }).count({ n: '*' }))[0]!.n) > 0, 'the other key had events too, never shown to this one');
    } finally {
      await db.destroy();
    }
  });

  async function createUrl(): Promise<string> {
    const u = new URL(DB!);
    u.pathname = `/${dbName}`;
    return u.toString();
  }
});
