// A named private key, created once: the first instance to ask stores the one it generated;
// every other instance (and every later start) reads that one back.
import type { Knex } from 'knex';

export async function keyOrCreate(db: Knex, name: string, generate: () => string, now: string): Promise<string> {
  const found = await db('signing_keys').where({ name }).first('private_jwk');
  if (found) return String(found.private_jwk);
  // Two instances may race here: the loser's insert is ignored and it reads the winner's key.
  await db('signing_keys').insert({ name, private_jwk: generate(), created_at: now }).onConflict('name').ignore();
  const row = await db('signing_keys').where({ name }).first('private_jwk');
  return String(row!.private_jwk);
}
