// The files a scan read, kept so that two scans of a domain can be compared line by line
// (GET /r/{scanId}/diff/{otherScanId}, and the watches' "robots.txt changed" alert). Evidence
// records keep only a body's hash. Bodies are stored once by content (file_bodies): a watched
// site's robots.txt seldom changes between runs, so a daily watch adds a row, not a file.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('file_bodies', (t) => {
    t.string('sha256', 64).primary();
    t.text('body').notNullable();
  });
  await db.schema.createTable('scan_files', (t) => {
    t.uuid('scan_id').notNullable().references('id').inTable('scans').onDelete('CASCADE');
    t.string('path', 64).notNullable(); // '/robots.txt'
    // present: a text file was read (body_sha256 names it); absent: the site has none (a 4xx);
    // unknown: it could not be read (a denial, a 5xx, no answer), so nothing is claimed about it.
    t.string('state', 16).notNullable();
    t.string('body_sha256', 64).nullable();
    t.primary(['scan_id', 'path']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('scan_files');
  await db.schema.dropTable('file_bodies');
}
