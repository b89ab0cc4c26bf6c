// The badge's lookup (latest site scan of a domain: ORDER BY scanned_at DESC, id DESC
// LIMIT 1) could use (domain, scanned_at) only for its first sort key, so every badge view
// sorted all of the domain's scans in a temporary B-tree (SQLite's query plan; the top cost
// of GET /badge in bench/results.md). An index in the query's full order makes it one seek.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('scans', (t) => {
    t.index(['domain', 'kind', 'scanned_at', 'id'], 'scans_latest_by_domain');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('scans', (t) => {
    t.dropIndex(['domain', 'kind', 'scanned_at', 'id'], 'scans_latest_by_domain');
  });
}
