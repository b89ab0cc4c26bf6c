// A fresh PostgreSQL database for a test that runs whole service processes against one:
// created through the admin URL (TEST_DATABASE_URL), and its own URL returned.
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
