// Watches (src/watches/) and their runs (their webhooks' deliveries are migration 010's).
//
// A watch holds what was asked and its state; no token or secret is stored: the manage token,
// the mail token and the webhook secret are derived from the webhook master key and the
// watch id (src/webhooks/secrets.ts, src/watches/tokens.ts). A run is one row per (watch,
// period), written before its scan starts and finished by a conditional update inside the
// scan's archive transaction, which is what makes a period run once however many times its job
// is delivered.
//
// The mail outbox also carries mails that belong to no scan (a watch's confirmation): its
// scan_id becomes nullable, and each row may carry extra headers (List-Unsubscribe and
// List-Unsubscribe-Post, RFC 8058) and the watch it belongs to.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('watches', (t) => {
    t.string('id', 36).primary(); // random UUID
    t.string('domain', 253).notNullable().index();
    t.string('lead_name', 120).notNullable();
    t.string('lead_email', 254).notNullable();
    t.string('lead_phone', 25).nullable();
    t.string('lead_role', 80).nullable();
    t.string('every', 8).notNullable(); // day | week
    t.boolean('notify_email').notNullable();
    t.string('webhook_url', 2048).nullable();
    t.integer('secret_version').notNullable().defaultTo(1);
    t.integer('threshold').notNullable();
    t.string('status', 24).notNullable(); // pending-confirmation | active | ended
    t.string('key_id', 40).nullable().index(); // the partner key that created it (active at once)
    t.string('created_at', 32).notNullable();
    t.string('confirmed_at', 32).nullable(); // when it became active: period 0 starts here
    t.string('ended_at', 32).nullable();
    t.string('ended_by', 16).nullable(); // deleted | unsubscribed
  });
  await db.schema.createTable('watch_runs', (t) => {
    t.string('watch_id', 36).notNullable().references('id').inTable('watches').onDelete('CASCADE');
    t.integer('period').notNullable();
    t.string('state', 16).notNullable(); // running | done | failed | skipped
    t.boolean('charged').notNullable().defaultTo(false); // a key's scan was spent on it
    t.string('scan_id', 36).nullable();
    t.string('headline', 32).nullable();
    t.integer('score').nullable();
    t.text('changes').nullable(); // JSON array of {kind, text}: what counted against the previous run
    t.string('previous_scan_id', 36).nullable();
    t.string('alerted_at', 32).nullable(); // alerts (or the decision that none are due) done
    t.text('error').nullable();
    t.string('started_at', 32).notNullable();
    t.string('finished_at', 32).nullable();
    t.primary(['watch_id', 'period']);
  });
  await db.schema.alterTable('mail_outbox', (t) => {
    t.uuid('scan_id').nullable().alter();
    t.text('headers').nullable(); // JSON object of extra headers
    t.string('watch_id', 36).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db('mail_outbox').whereNull('scan_id').delete();
  await db.schema.alterTable('mail_outbox', (t) => {
    t.dropColumn('watch_id');
    t.dropColumn('headers');
  });
  await db.schema.alterTable('mail_outbox', (t) => t.uuid('scan_id').notNullable().alter());
  await db.schema.dropTable('watch_runs');
  await db.schema.dropTable('watches');
}
