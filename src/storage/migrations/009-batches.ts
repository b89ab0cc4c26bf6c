// Batches of domains submitted by a partner key (src/batches/). A batch row holds what was
// asked; its items hold one row per distinct domain, in submission order (seq), each an
// ordinary archived scan once done. `facts` keeps what the summary needs from the item's
// report (per agent: robots.txt blocks, edge denies on both networks; attributed vendors), so
// a summary reads the items alone. Counts are never stored: they are read from the items, so
// they can never drift from the results.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('batches', (t) => {
    t.string('id', 36).primary(); // random UUID
    t.string('key_id', 40).notNullable().index();
    t.string('label', 200).nullable();
    t.string('profile', 32).nullable();
    t.string('status', 16).notNullable(); // queued | running | done | cancelled
    t.integer('total').notNullable();
    t.text('rejected').notNullable(); // JSON array of {line, input, error, hint?}
    t.string('charged_day', 10).notNullable(); // the UTC day the key's budget paid for it
    t.string('created_at', 32).notNullable();
    t.string('started_at', 32).nullable();
    t.string('finished_at', 32).nullable();
  });
  await db.schema.createTable('batch_items', (t) => {
    t.string('batch_id', 36).notNullable().references('id').inTable('batches').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.string('domain', 253).notNullable();
    t.string('state', 16).notNullable(); // pending | done | failed | cancelled
    t.string('scan_id', 36).nullable();
    t.boolean('report_archived').nullable();
    t.string('headline', 32).nullable();
    t.integer('score').nullable();
    t.string('confidence', 16).nullable();
    t.text('error').nullable(); // JSON of the Error shape for failed items
    t.text('facts').nullable();
    t.string('finished_at', 32).nullable();
    t.primary(['batch_id', 'seq']);
    t.unique(['batch_id', 'domain']);
    t.index(['batch_id', 'state']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('batch_items');
  await db.schema.dropTable('batches');
}
