// Archived reports. A row is written once and never updated: a report link must always show
// the same point-in-time report. The one-time CLI-vantage attachment lives in its own table
// (002) so the report row itself stays immutable.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('scans', (t) => {
    t.uuid('id').primary();
    t.string('kind', 16).notNullable(); // 'site' | 'mcp-server'
    t.string('domain', 253).notNullable();
    t.string('headline', 32).notNullable();
    t.integer('score').nullable();
    t.text('report').notNullable(); // JSON of the archived payload (no coalesced/ageMs/token/reportUrl)
    t.text('evidence').nullable(); // JSON array of the engine's evidence records
    t.string('scanned_at', 32).notNullable(); // ISO-8601 UTC, sorts lexically
    // The lead is stored with the scan and never leaves the service (no public surface reads these).
    t.string('lead_name', 120).notNullable();
    t.string('lead_email', 254).notNullable();
    t.string('lead_phone', 25).nullable();
    t.string('lead_role', 80).nullable();
    // sha256 of the cliUploadToken; the token itself is never stored.
    t.string('upload_token_hash', 64).nullable();
    t.index(['domain', 'scanned_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('scans');
}
