// The service's own signing key for Web Bot Auth (its probes, signed as agent-readiness),
// generated once and shared by every instance through the database.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('signing_keys', (t) => {
    t.string('name', 64).primary();
    t.text('private_jwk').notNullable();
    t.string('created_at', 32).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('signing_keys');
}
