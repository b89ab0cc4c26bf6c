// Migrations started at the same moment by several service instances on one empty PostgreSQL
// database must all succeed. Four knex pools in one process line the race up far more tightly
// than separate processes can, so this fails every time without the advisory lock (measured
// 5 of 5 rounds: "relation knex_migrations already exists" / "Migration table is already
// locked"). Needs TEST_DATABASE_URL; skipped loudly without it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { createDb, migrate } from '../../src/storage/db.ts';
import { migrations } from '../../src/storage/migrations/index.ts';
import { postgresSkip } from './databases.ts';

const ROUNDS = 3;

describe('concurrent migrations on one PostgreSQL database', { skip: postgresSkip || undefined }, () => {
  let admin: Knex;
  const created: string[] = [];
  before(() => { admin = knex({ client: 'pg', connection: process.env.TEST_DATABASE_URL }); });
  after(async () => {
    for (const name of created) await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.destroy();
  });

  for (let round = 1; round <= ROUNDS; round++) {
    test(`four pools migrating one empty database at once all succeed (round ${round})`, async () => {
      const name = `migrace_${randomBytes(4).toString('hex')}`;
      await admin.raw(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const dbs = Array.from({ length: 4 }, () => createDb(url.toString()));
      try {
        const results = await Promise.allSettled(dbs.map((db) => migrate(db)));
        assert.deepEqual(results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : [])), []);
        const rows = await dbs[0]!('knex_migrations').select('name').orderBy('id');
        assert.deepEqual(rows.map((r: { name: string }) => r.name), migrations.map((m) => m.name));
      } finally {
        await Promise.all(dbs.map((db) => db.destroy()));
      }
    });
  }
});
