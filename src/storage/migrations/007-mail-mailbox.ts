// The daily mail cap counts mailboxes, not spellings (src/storage/mailbox.ts): `ada+1@x`,
// `ada+2@x` and Gmail's dotted forms each had a fresh budget when the cap counted
// lower(to_addr). Each outbox row now carries the mailbox it delivers to, existing rows are
// backfilled with the same function the archive uses, and the cap's count reads an index in
// those terms. The old index on lower(to_addr) (migration 005) served only that count: dropped.
import type { Knex } from 'knex';
import { mailboxOf } from '../mailbox.ts';
import { MAIL_CAP_INDEX } from './005-mail-cap-index.ts';

export const MAILBOX_INDEX = 'mail_outbox_mailbox_created';
const BATCH = 500;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('mail_outbox', (t) => t.string('mailbox', 320).nullable());
  // In batches by id, so a large outbox is never held in memory at once.
  let after = '';
  for (;;) {
    const rows: Array<{ id: string; to_addr: string }> = await db('mail_outbox').select('id', 'to_addr').where('id', '>', after).orderBy('id').limit(BATCH);
    if (!rows.length) break;
    for (const r of rows) await db('mail_outbox').where({ id: r.id }).update({ mailbox: mailboxOf(r.to_addr) });
    after = rows.at(-1)!.id;
  }
  await db.schema.alterTable('mail_outbox', (t) => t.index(['mailbox', 'created_at'], MAILBOX_INDEX));
  await db.raw(`drop index ${MAIL_CAP_INDEX}`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`create index ${MAIL_CAP_INDEX} on mail_outbox (lower(to_addr), created_at)`);
  await db.schema.alterTable('mail_outbox', (t) => t.dropIndex(['mailbox', 'created_at'], MAILBOX_INDEX));
  await db.schema.alterTable('mail_outbox', (t) => t.dropColumn('mailbox'));
}
