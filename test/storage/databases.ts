// Test databases: SQLite in memory always, Postgres when TEST_DATABASE_URL is set, each in a
// fresh schema dropped afterwards so parallel test files never see each other's rows.
import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { createDb, migrate } from '../../src/storage/db.ts';

export interface TestDb {
  name: 'sqlite' | 'postgres';
  db: Knex;
  close(): Promise<void>;
}

/** Why the Postgres runs of a storage suite are skipped, or false when they run. */
export const postgresSkip: string | false = process.env.TEST_DATABASE_URL
  ? false
  : 'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)';
if (postgresSkip) console.warn(`SKIPPING Postgres storage runs: ${postgresSkip}`);

/**
 * The engines to run a storage suite against: both, always. Give each engine's describe
 * `{ skip: skipFor(name) }` so a missing Postgres shows as skipped tests in the summary.
 */
export function databaseNames(): Array<'sqlite' | 'postgres'> {
  return ['sqlite', 'postgres'];
}

export function skipFor(name: 'sqlite' | 'postgres'): string | false {
  return name === 'postgres' ? postgresSkip : false;
}

export async function openTestDb(name: 'sqlite' | 'postgres'): Promise<TestDb> {
  if (name === 'sqlite') {
    const db = createDb('sqlite::memory:');
    await migrate(db);
    return { name, db, close: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw(`create schema ${schema}`);
  const db = knex({ client: 'pg', connection: url, searchPath: [schema], pool: { min: 0, max: 10 } });
  await migrate(db);
  return {
    name,
    db,
    async close() {
      await db.destroy();
      await admin.raw(`drop schema ${schema} cascade`);
      await admin.destroy();
    },
  };
}
