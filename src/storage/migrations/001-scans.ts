// Archived reports. Written once and never updated (immutability is a product promise),
// except for the one-time CLI-vantage attachment, which has its own table.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('scans', (t) => {
    t.uuid('id').primary();
    t.string('kind', 16).notNullable(); // 'site' | 'mcp-server'
    t.string('domain', 253).notNullable();
    t.string('headline', 32).notNullable();
    t.integer('score').nullable();
    t.text('report').notNullable(); // JSON, exactly as served
    t.string('scanned_at', 32).notNullable(); // ISO-8601 UTC, sorts lexically
    t.index(['domain', 'scanned_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('scans');
}
