// A batch's capability links (links.summaryPage, links.resultsPage): the token is derived from the
// webhook master key, the batch id and this version (src/batches/link-tokens.ts), never stored;
// rotating the links (POST /batches/{batchId}/links) bumps the version, which kills the old ones.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('batches', (t) => {
    t.integer('links_version').notNullable().defaultTo(1);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batches', (t) => {
    t.dropColumn('links_version');
  });
}
