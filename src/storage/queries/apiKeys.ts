// Partner API keys and, without Redis, their daily counters (migration 006).
import type { Knex } from 'knex';

export interface ApiKeyRow {
  id: string;
  name: string;
  daily_scans: number;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export async function insertApiKey(db: Knex, row: ApiKeyRow): Promise<void> {
  await db('api_keys').insert(row);
}

export async function findApiKeyByHash(db: Knex, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first();
}

export async function findApiKey(db: Knex, id: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ id }).first();
}

export async function listApiKeys(db: Knex): Promise<ApiKeyRow[]> {
  return db<ApiKeyRow>('api_keys').select('*').orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Stamps revoked_at once; false when no such key or it was already revoked. */
export async function revokeApiKey(db: Knex, id: string, at: string): Promise<boolean> {
  return (await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: at })) === 1;
}

/** Scans a key has spent on a UTC day. */
export async function usedOn(db: Knex, keyId: string, day: string): Promise<number> {
  const row = await db('api_key_usage').where({ key_id: keyId, day }).first('used');
  return Number(row?.used ?? 0);
}

/**
 * Spends `n` of a key's day if `used + n <= limit`, atomically: one conditional update, so
 * two instances racing on one key never overspend. Returns what is used after the call and
 * whether the spend happened.
 */
export async function spend(db: Knex, keyId: string, day: string, n: number, limit: number): Promise<{ ok: boolean; used: number }> {
  await db('api_key_usage').insert({ key_id: keyId, day, used: 0 }).onConflict(['key_id', 'day']).ignore();
  const changed = await db('api_key_usage').where({ key_id: keyId, day }).andWhere('used', '<=', limit - n).increment('used', n);
  return { ok: changed === 1, used: await usedOn(db, keyId, day) };
}

/** Gives back `n` (a batch refused after its budget was taken, or cancelled items). */
export async function refund(db: Knex, keyId: string, day: string, n: number): Promise<void> {
  await db('api_key_usage').where({ key_id: keyId, day }).update({ used: db.raw('case when used > ? then used - ? else 0 end', [n, n]) });
}
