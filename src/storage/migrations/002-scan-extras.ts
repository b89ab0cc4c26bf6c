// Tables that grow around an archived scan without ever changing its row: the one-time
// CLI-vantage attachment, the vendors seen (for operator statistics), the owner-requested
// exclusions, and the mail outbox written in the same transaction as the report.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('cli_vantages', (t) => {
    // The primary key is the "one attach per report" rule: a second insert fails atomically,
    // whatever the number of concurrent uploads.
    t.uuid('scan_id').primary().references('id').inTable('scans').onDelete('CASCADE');
    t.text('payload').notNullable(); // JSON CliVantage
    t.string('attached_at', 32).notNullable();
  });
  await db.schema.createTable('scan_vendors', (t) => {
    t.uuid('scan_id').notNullable().references('id').inTable('scans').onDelete('CASCADE');
    t.string('vendor', 80).notNullable();
    t.primary(['scan_id', 'vendor']);
  });
  await db.schema.createTable('excluded_domains', (t) => {
    t.string('domain', 253).primary();
    t.string('reason', 200).nullable();
    t.string('added_at', 32).notNullable();
  });
  await db.schema.createTable('mail_outbox', (t) => {
    t.string('id', 64).primary(); // also the local part of the Message-ID, so a resend is recognisable
    t.uuid('scan_id').notNullable().references('id').inTable('scans').onDelete('CASCADE');
    t.string('to_addr', 254).notNullable();
    t.string('subject', 300).notNullable();
    t.text('text_body').notNullable();
    t.text('html_body').notNullable();
    t.string('status', 16).notNullable(); // 'pending' | 'sent' | 'dead'
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 32).notNullable();
    t.string('lease_owner', 64).nullable();
    t.string('lease_until', 32).nullable();
    t.text('last_error').nullable();
    t.string('created_at', 32).notNullable();
    t.string('sent_at', 32).nullable();
    t.unique(['scan_id', 'to_addr']);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['mail_outbox', 'excluded_domains', 'scan_vendors', 'cli_vantages']) await db.schema.dropTable(table);
}
