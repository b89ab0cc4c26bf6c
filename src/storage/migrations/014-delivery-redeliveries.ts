// Webhook deliveries sent again on request (redeliverWebhook) and when each next attempt is due:
// `redeliveries` counts the redeliveries (it also names each redelivery's job, so the engine
// never mistakes it for the finished first run), `redelivered_at` bounds them to one a minute,
// and `last_attempt_at` lets the manage page say when a pending delivery's retry is due.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.integer('redeliveries').notNullable().defaultTo(0);
    t.string('redelivered_at', 32).nullable();
    t.string('last_attempt_at', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('redeliveries');
    t.dropColumn('redelivered_at');
    t.dropColumn('last_attempt_at');
  });
}
