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
        // Commits write the WAL and return; it is synced at checkpoints. A process crash loses
        // nothing; a power cut can lose the last commits, never corrupt the file. Said here
        // because SQLite's default depends on how the connection was opened: better-sqlite3
        // builds it with NORMAL for a file already in WAL mode, but a new file starts at FULL
        // (an fsync per archived scan) until its first connection is replaced.
        conn.pragma('synchronous = NORMAL');
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

/** Arbitrary but fixed: every instance of this service takes the same advisory lock. */
const MIGRATION_LOCK_KEY = 0x61_72_6d_67; // "armg"

/**
 * Instances that start together (a rolling deploy, an autoscaler) race to migrate. knex's own
 * lock table is created before it is locked, so two instances can both try to create it and
 * one dies on "relation knex_migrations_lock already exists". On PostgreSQL the whole run is
 * serialised by a session advisory lock held on a connection of its own: the first instance
 * migrates, the others wait, then find nothing to do. SQLite is one process's file.
 */
export async function migrate(db: Knex): Promise<void> {
  if (dialectOf(db) !== 'postgres') {
    await db.migrate.latest({ migrationSource: source });
    return;
  }
  await db.transaction(async (lock) => {
    // Transaction-scoped, so the lock is released on commit, rollback or a dropped connection.
    await lock.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
    await db.migrate.latest({ migrationSource: source });
  });
}
