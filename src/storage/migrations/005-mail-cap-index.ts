// The daily mail cap counts one address's mails of the last 24 hours on every archived scan
// (archiveScan.ts: lower(to_addr) = ? and created_at > ?). Without an index on that expression
// the count read the whole outbox, bodies included, so every scan grew slower with the
// service's history. An index in the query's own terms makes it a range read of one address.
import type { Knex } from 'knex';

export const MAIL_CAP_INDEX = 'mail_outbox_recipient_created';

export async function up(db: Knex): Promise<void> {
  // An expression index: knex's builder has none, and the SQL is the same on SQLite and PostgreSQL.
  await db.raw(`create index ${MAIL_CAP_INDEX} on mail_outbox (lower(to_addr), created_at)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index ${MAIL_CAP_INDEX}`);
}
