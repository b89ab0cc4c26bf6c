// Partner key rows and their daily counters (migration 006), on SQLite and PostgreSQL: found by
// hash, listed in creation order, revoked once; spending is all or none and never goes over the
// limit even when many spends race; a refund never takes the counter below zero; days are apart.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { findApiKey, findApiKeyByHash, insertApiKey, listApiKeys, refund, revokeApiKey, spend, usedOn, type ApiKeyRow } from '../../src/storage/queries/apiKeys.ts';
import { databaseNames, openTestDb, skipFor, type TestDb } from './databases.ts';

function key(over: Partial<ApiKeyRow> = {}): ApiKeyRow {
  return { id: `k_${randomUUID().slice(0, 12)}`, name: 'Partner ✓', daily_scans: 10, key_hash: randomUUID().replaceAll('-', ''), created_at: '2026-01-02T00:00:00.000Z', revoked_at: null, ...over };
}

for (const name of databaseNames()) {
  describe(`api key rows on ${name}`, { skip: skipFor(name) }, () => {
    let t: TestDb;
    before(async () => { t = await openTestDb(name); });
    after(async () => { await t?.close(); });

    test(`${name}: found by hash and id, listed in creation order, revoked once`, async () => {
      const late = key({ created_at: '2026-01-03T00:00:00.000Z' });
      const early = key({ created_at: '2026-01-01T00:00:00.000Z' });
      await insertApiKey(t.db, late);
      await insertApiKey(t.db, early);
      const norm = (r: ApiKeyRow | undefined) => r && { ...r, daily_scans: Number(r.daily_scans) };
      assert.deepEqual(norm(await findApiKeyByHash(t.db, late.key_hash)), late);
      assert.deepEqual(norm(await findApiKey(t.db, early.id)), early);
      assert.equal(await findApiKeyByHash(t.db, 'no-such-hash'), undefined);
      assert.deepEqual((await listApiKeys(t.db)).map((r) => r.id), [early.id, late.id]);
      assert.equal(await revokeApiKey(t.db, late.id, '2026-01-04T00:00:00.000Z'), true);
      assert.equal(await revokeApiKey(t.db, late.id, '2026-01-05T00:00:00.000Z'), false, 'revoked once');
      assert.equal(await revokeApiKey(t.db, 'k_nope', '2026-01-05T00:00:00.000Z'), false);
      assert.equal((await findApiKey(t.db, late.id))!.revoked_at, '2026-01-04T00:00:00.000Z');
    });

    test(`${name}: a spend is all or none; 20 racing spends of 1 on a limit of 7 spend exactly 7`, async () => {
      const k = key();
      await insertApiKey(t.db, k);
      assert.deepEqual(await spend(t.db, k.id, '2026-01-02', 4, 10), { ok: true, used: 4 });
      assert.deepEqual(await spend(t.db, k.id, '2026-01-02', 7, 10), { ok: false, used: 4 }, 'over the limit: nothing spent');
      assert.deepEqual(await spend(t.db, k.id, '2026-01-02', 6, 10), { ok: true, used: 10 });
      const other = key();
      await insertApiKey(t.db, other);
      const raced = await Promise.all(Array.from({ length: 20 }, () => spend(t.db, other.id, '2026-01-02', 1, 7)));
      assert.equal(raced.filter((r) => r.ok).length, 7);
      assert.equal(await usedOn(t.db, other.id, '2026-01-02'), 7);
      assert.equal(await usedOn(t.db, other.id, '2026-01-03'), 0, 'another day starts at zero');
    });

    test(`${name}: a refund gives back, never below zero, and only on its day`, async () => {
      const k = key();
      await insertApiKey(t.db, k);
      await spend(t.db, k.id, '2026-01-02', 5, 10);
      await spend(t.db, k.id, '2026-01-03', 2, 10);
      await refund(t.db, k.id, '2026-01-02', 3);
      assert.equal(await usedOn(t.db, k.id, '2026-01-02'), 2);
      await refund(t.db, k.id, '2026-01-02', 9);
      assert.equal(await usedOn(t.db, k.id, '2026-01-02'), 0);
      assert.equal(await usedOn(t.db, k.id, '2026-01-03'), 2);
      await refund(t.db, k.id, '2026-01-09', 1);
      assert.equal(await usedOn(t.db, k.id, '2026-01-09'), 0, 'a refund on a day never spent makes no row go negative');
    });
  });
}
