// knex on SQLite (embedded default, better-sqlite3) or Postgres (several instances),
// chosen by DATABASE_URL. Migrations are a static ordered list, run at start.
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { migrations } from './migrations/index.ts';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}

export function createDb(databaseUrl: string): Knex {
  if (databaseUrl.startsWith('postgres')) {
    return knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 } });
  }
  const file = databaseUrl.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and a single connection keeps
    // ':memory:' databases (tests) alive and shared.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        reusePreparedStatements(conn);
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
}

interface SqliteConnection {
  pragma(s: string): unknown;
  prepare(sql: string): unknown;
}

const MAX_STATEMENTS = 256;

/**
 * knex prepares every query anew (better-sqlite3 dialect, _query), the largest cost of a
 * cached read in the profile (bench/results.md). The service issues a small fixed set of
 * SQL strings, so keep their prepared statements on the connection. Safe because the
 * connection is single and better-sqlite3 runs each statement to completion synchronously
 * (knex uses all/run, never iterate), and SQLite re-prepares a statement after a schema change.
 */
function reusePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const statements = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (statements.size < MAX_STATEMENTS) statements.set(sql, statement);
    }
    return statement;
  };
}

const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

/**
 * An arbitrary fixed key for pg_advisory_lock, the same in every instance of the service
 * (0x6172 = "ar", agent-readiness; the low word says "migrate").
 */
const MIGRATION_LOCK_KEY = 0x6172_0001;

/**
 * Runs pending migrations. On PostgreSQL several instances start at once in a rolling deploy;
 * knex's own lock table is itself created by a racing CREATE TABLE ("relation
 * knex_migrations_lock already exists"), so an instance could die at start. A session-level
 * advisory lock, held on one dedicated connection for the whole run, serialises the
 * instances: the first migrates, the others wait, then find nothing to do. SQLite is one
 * process's file and needs no lock.
 */
export async function migrate(db: Knex): Promise<void> {
  if (dialectOf(db) !== 'postgres') {
    await db.migrate.latest({ migrationSource: source });
    return;
  }
  const conn = await db.client.acquireConnection();
  try {
    await db.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK_KEY]).connection(conn);
    try {
      await db.migrate.latest({ migrationSource: source });
    } finally {
      await db.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK_KEY]).connection(conn);
    }
  } finally {
    await db.client.releaseConnection(conn);
  }
}
