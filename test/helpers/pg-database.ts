// A fresh PostgreSQL database for a test that runs whole service processes against one:
// created through the admin URL (TEST_DATABASE_URL), and its own URL returned; dropped (with
// its connections) by dropDatabase in the test's `after`.
import knex from 'knex';

export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = knex({ client: 'pg', connection: adminUrl });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database, closing whatever is still connected to it; never throws (cleanup). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = knex({ client: 'pg', connection: adminUrl });
  try {
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch {
    // cleanup: a database left behind is not the test's verdict
  } finally {
    await admin.destroy();
  }
}
