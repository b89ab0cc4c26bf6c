// SQLite's durability is chosen in src/storage/db.ts, not left to how a connection was opened:
// better-sqlite3's build gives synchronous=NORMAL to a file already in WAL mode but FULL to a
// new one, so a fresh database fsynced every archived scan until its connection was replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrate } from '../../src/storage/db.ts';

type Settings = { journal: string; synchronous: number };

async function read(db: ReturnType<typeof createDb>): Promise<Settings> {
  const [journal] = (await db.raw('pragma journal_mode')) as [{ journal_mode: string }];
  const [sync] = (await db.raw('pragma synchronous')) as [{ synchronous: number }];
  return { journal: journal.journal_mode, synchronous: sync.synchronous };
}

/** The settings of a connection before and after the migrations run (they replace it). */
async function settings(file: string): Promise<{ first: Settings; migrated: Settings }> {
  const db = createDb(`sqlite:${file}`);
  try {
    const first = await read(db);
    await migrate(db);
    return { first, migrated: await read(db) };
  } finally {
    await db.destroy();
  }
}

test('a new SQLite file and a reopened one run WAL with synchronous NORMAL on every connection', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-settings-'));
  const normal = { journal: 'wal', synchronous: 1 };
  try {
    const file = path.join(dir, 'db.sqlite');
    assert.deepEqual(await settings(file), { first: normal, migrated: normal }, 'new file');
    assert.deepEqual(await settings(file), { first: normal, migrated: normal }, 'reopened');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
