// Webhook deliveries (issue 31): one row per event sent to a watch's webhook URL. The body is
// stored as the exact JSON text sent, so every retry carries the same bytes under the same
// event id (only the signature's timestamp is fresh). The row, not the job engine, is the
// truth about a delivery: a redelivered job reads it and sends nothing once it is final.
// No foreign key to watches: deliveries are written by src/webhooks, which knows only the id,
// and a watch's history of deliveries is kept while its rows are.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 36).primary(); // random UUID; names the delivery's job
    t.string('watch_id', 64).notNullable();
    t.string('event_id', 100).notNullable().unique();
    t.string('type', 40).notNullable(); // readiness.changed | readiness.test
    t.text('url').notNullable();
    t.integer('secret_version').notNullable(); // which of the watch's derived secrets signs it
    t.text('body').notNullable(); // the raw JSON text sent
    t.string('status', 16).notNullable(); // pending | delivered | failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status_code').nullable();
    t.text('last_error').nullable();
    t.string('created_at', 32).notNullable();
    t.string('delivered_at', 32).nullable();
    t.index(['watch_id', 'created_at']);
    t.index(['status', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_deliveries');
}
