// Partner API keys (src/keys/). The key itself is never stored: only its SHA-256, which is
// enough for a 256-bit random secret (nothing to brute-force, so no slow hash is needed).
// A key is revoked by stamping revoked_at, never deleted, so its batches keep their owner.
// The daily budget's counter (without Redis) lives in api_key_usage: one row per key and
// UTC day, bumped by a conditional update so instances sharing the database never overspend.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_keys', (t) => {
    t.string('id', 40).primary(); // public identifier, e.g. key_3f9c0a1b2d4e
    t.string('name', 120).notNullable();
    t.integer('daily_scans').notNullable();
    t.string('key_hash', 64).notNullable().unique(); // hex sha256 of the whole key
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
  });
  await db.schema.createTable('api_key_usage', (t) => {
    t.string('key_id', 40).notNullable();
    t.string('day', 10).notNullable(); // YYYY-MM-DD, UTC
    t.integer('used').notNullable();
    t.primary(['key_id', 'day']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_key_usage');
  await db.schema.dropTable('api_keys');
}
