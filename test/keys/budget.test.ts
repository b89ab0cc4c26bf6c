// The partner-key service on both budget stores (the database, on SQLite and PostgreSQL, and
// Redis): issue, authenticate, revoke, and spend a daily budget that two instances share
// without ever overspending it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../../src/errors.ts';
import { dayOf } from '../../src/keys/budget.ts';
import { ApiKeys, rateLimitHeaders } from '../../src/keys/service.ts';
import { hashKey } from '../../src/keys/secret.ts';
import { openTestDb, skipFor, type TestDb } from '../storage/databases.ts';

const REDIS = process.env.TEST_REDIS_URL;
if (!REDIS) console.warn('SKIPPING the Redis budget runs: TEST_REDIS_URL is not set');

async function rejects(p: Promise<unknown>, status: number): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.status, status, err.body.error);
    return err;
  }
  assert.fail(`expected a ${status}`);
}

const stores: Array<{ name: string; db: 'sqlite' | 'postgres'; redis: boolean; skip: string | false }> = [
  { name: 'sqlite database', db: 'sqlite', redis: false, skip: skipFor('sqlite') },
  { name: 'postgres database', db: 'postgres', redis: false, skip: skipFor('postgres') },
  { name: 'redis', db: 'sqlite', redis: true, skip: REDIS ? false : 'TEST_REDIS_URL is not set' },
];

for (const s of stores) {
  describe(`partner keys, budget in ${s.name}`, { skip: s.skip }, () => {
    let t: TestDb;
    const clients: Redis[] = [];
    const prefix = `tkeys${randomBytes(4).toString('hex')}`;
    let now = new Date('2026-11-27T22:00:00Z');
    const instance = () => {
      let redis: Redis | undefined;
      if (s.redis) {
        redis = new Redis(REDIS!, { maxRetriesPerRequest: 1 });
        clients.push(redis);
      }
      return new ApiKeys({ db: t.db, ...(redis ? { redis } : {}), prefix, now: () => now, operatorToken: 'operator-token-0123456789' });
    };
    before(async () => { t = await openTestDb(s.db); });
    after(async () => {
      for (const c of clients) {
        const keys = await c.keys(`${prefix}:*`);
        if (keys.length) await c.del(...keys);
        c.disconnect();
      }
      await t.close();
    });

    test('a key is shown once and stored only as its hash', async () => {
      const keys = instance();
      const { keyId, key } = await keys.create('Acme Agency', 100);
      assert.match(key, /^ark_[A-Za-z0-9_-]{43}$/);
      const row = await t.db('api_keys').where({ id: keyId }).first();
      assert.equal(row.key_hash, hashKey(key));
      assert.ok(!JSON.stringify(row).includes(key.slice(4)), 'the key itself is not stored');
      const listed = await keys.list();
      assert.ok(!JSON.stringify(listed).includes(key.slice(4)), 'list never shows the key');
    });

    test('authenticate: the key, or 401 with WWW-Authenticate: Bearer for none, unknown, malformed or revoked', async () => {
      const keys = instance();
      const { keyId, key } = await keys.create('Auth Co', 10);
      assert.deepEqual(await keys.authenticate(`Bearer ${key}`), { keyId, name: 'Auth Co', dailyScans: 10 });
      assert.deepEqual(await keys.authenticate(`bearer ${key}`), { keyId, name: 'Auth Co', dailyScans: 10 }, 'the scheme is case-insensitive');
      const cases: Array<[string | undefined, RegExp]> = [
        [undefined, /required/], ['', /required/], [`Basic ${key}`, /required/], ['Bearer', /required/],
        [`Bearer ark_${'x'.repeat(43)}`, /not valid/], ['Bearer short', /not valid/], [`Bearer ${key}x`, /not valid/],
      ];
      for (const [header, message] of cases) {
        const e = await rejects(keys.authenticate(header), 401);
        assert.match(e.body.error, message, String(header));
        assert.match(e.headers['WWW-Authenticate']!, /^Bearer realm="agent-readiness"/);
      }
      assert.equal(await keys.revoke(keyId), true);
      assert.equal(await keys.revoke(keyId), false, 'a second revoke changes nothing');
      const e = await rejects(keys.authenticate(`Bearer ${key}`), 401);
      assert.match(e.body.error, /revoked/);
      assert.match(e.headers['WWW-Authenticate']!, /error="invalid_token"/);
    });

    test('identify: the operator token is the operator; a key is its partner', async () => {
      const keys = instance();
      const { key } = await keys.create('Who Co', 10);
      assert.deepEqual(await keys.identify('Bearer operator-token-0123456789'), { kind: 'operator' });
      assert.equal((await keys.identify(`Bearer ${key}`)).kind, 'partner');
      await rejects(keys.identify('Bearer operator-token-wrong'), 401);
    });

    test('consume spends all or none; over budget is a 429 with what remains and when it refills', async () => {
      const keys = instance();
      const { keyId } = await keys.create('Budget Co', 10);
      const first = await keys.consume(keyId, 7);
      assert.deepEqual(first, { limit: 10, remaining: 3, resetS: 7200 });
      assert.deepEqual(rateLimitHeaders(first), { 'RateLimit-Policy': '"daily";q=10;w=86400', RateLimit: '"daily";r=3;t=7200' });
      const e = await rejects(keys.consume(keyId, 4), 429);
      assert.match(e.body.error, /3 of its 10 daily scans left; 4 were asked for/);
      assert.equal(e.body.retryAfterSeconds, 7200);
      assert.equal(e.headers['Retry-After'], '7200');
      assert.equal(e.headers.RateLimit, '"daily";r=3;t=7200');
      assert.equal((await keys.peek(keyId)).remaining, 3, 'a refused spend spends nothing');
      assert.equal((await keys.consume(keyId, 3)).remaining, 0);
      await rejects(keys.consume(keyId, 1), 429);
      await keys.refund(keyId, 2);
      assert.equal((await keys.peek(keyId)).remaining, 2);
    });

    test('the budget refills at 00:00 UTC', async () => {
      const keys = instance();
      const { keyId } = await keys.create('Midnight Co', 5);
      now = new Date('2026-11-28T23:59:30Z');
      assert.equal((await keys.consume(keyId, 5)).resetS, 30);
      await rejects(keys.consume(keyId, 1), 429);
      now = new Date('2026-11-29T00:00:01Z');
      assert.deepEqual(await keys.peek(keyId), { limit: 5, remaining: 5, resetS: 86399 });
      now = new Date('2026-11-27T22:00:00Z');
    });

    test('two instances racing for one budget never overspend it', async () => {
      const [a, b] = [instance(), instance()];
      const { keyId } = await a.create('Race Co', 50);
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).consume(keyId, 3)));
      const won = results.filter((r) => r.status === 'fulfilled').length;
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as AppError).status, 429);
      assert.equal(won, 16, '16 × 3 = 48 fit in 50; a 17th would not');
      assert.equal((await a.peek(keyId)).remaining, 2);
    });

    test('a revoked or unknown key cannot spend', async () => {
      const keys = instance();
      const { keyId } = await keys.create('Gone Co', 5);
      await keys.revoke(keyId);
      await rejects(keys.consume(keyId, 1), 401);
      await rejects(keys.consume('key_nope', 1), 401);
    });

    test('bad names and budgets are 400s', async () => {
      const keys = instance();
      await rejects(keys.create('', 5), 400);
      await rejects(keys.create('x'.repeat(121), 5), 400);
      await rejects(keys.create('ok', 0), 400);
      await rejects(keys.create('ok', 1.5), 400);
    });
  });
}

describe('partner keys, budget store unreachable', { skip: REDIS ? false : 'TEST_REDIS_URL is not set' }, () => {
  test('a Redis that is not there is a 503 in the Error shape, and nothing is spent', async () => {
    const t = await openTestDb('sqlite');
    // A port nothing listens on: the shared Redis itself is never stopped.
    const dead = new Redis('redis://127.0.0.1:9', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => undefined);
    try {
      const keys = new ApiKeys({ db: t.db, redis: dead, now: () => new Date() });
      const { keyId } = await keys.create('Down Co', 5);
      const e = await rejects(keys.consume(keyId, 1), 503);
      assert.match(e.body.error, /nothing was spent/);
      assert.equal(e.headers['Retry-After'], '30');
    } finally {
      dead.disconnect();
      await t.close();
    }
  });
});

test('dayOf: the UTC day and the seconds to the next', () => {
  assert.deepEqual(dayOf(new Date('2026-12-31T23:00:00Z')), { day: '2026-12-31', resetS: 3600 });
  assert.deepEqual(dayOf(new Date('2026-01-01T00:00:00Z')), { day: '2026-01-01', resetS: 86400 });
});

// The Redis budget under contention: many instances spending at once. A spend that fits is
// granted whatever else is in flight; the check and the spend are one atomic step (a Lua
// script). Ten spends of 10 and ten spends of 1 against 100 leave exactly 100 spent in any
// order (a ten is refused only above 90, and the ones fill any gap below 100), so the exact
// total must be granted; a counter inflated by a spend about to be given back refused ones
// that fitted.
describe('the Redis budget under contention', { skip: REDIS ? false : 'TEST_REDIS_URL is not set' }, () => {
  test('ten spends of 10 and ten of 1 against 100, on 12 connections at once: exactly 100 granted, every round', async () => {
    const { redisBudget } = await import('../../src/keys/budget.ts');
    const prefix = `tbudget${randomBytes(4).toString('hex')}`;
    const clients = Array.from({ length: 12 }, () => new Redis(REDIS!));
    try {
      await Promise.all(clients.map((c) => c.ping()));
      const stores = clients.map((c) => redisBudget(c, prefix));
      for (let round = 0; round < 20; round++) {
        const day = `2026-12-${String(round + 1).padStart(2, '0')}`;
        const sizes = [...Array(10).fill(10), ...Array(10).fill(1)].sort(() => Math.random() - 0.5) as number[];
        const results = await Promise.all(sizes.map((n, i) => stores[i % stores.length]!.spend('key-1', day, n, 100, 3600)));
        const granted = sizes.reduce((sum, n, i) => sum + (results[i]!.ok ? n : 0), 0);
        assert.equal(granted, 100, `round ${round}: ${results.map((r, i) => `${sizes[i]}:${r.ok ? 'ok' : 'refused'}`).join(' ')}`);
        assert.equal(await stores[0]!.used('key-1', day), 100);
      }
      await stores[0]!.refund('key-1', '2026-12-01', 500);
      assert.equal(await stores[0]!.used('key-1', '2026-12-01'), 0, 'a refund never goes below nothing');
    } finally {
      const keys = await clients[0]!.keys(`${prefix}:*`);
      if (keys.length) await clients[0]!.del(...keys);
      for (const c of clients) c.disconnect();
    }
  });
});
