// The one-time CLI-vantage attachment. The primary key on scan_id makes "one attach per
// report" atomic: of any number of concurrent inserts exactly one returns a row.
import type { Knex } from 'knex';

export async function insertCliVantage(db: Knex, scanId: string, payload: string, attachedAt: string): Promise<'inserted' | 'exists'> {
  const rows = await db('cli_vantages')
    .insert({ scan_id: scanId, payload, attached_at: attachedAt })
    .onConflict('scan_id')
    .ignore()
    .returning('scan_id');
  return rows.length === 1 ? 'inserted' : 'exists';
}

export async function findCliVantage(db: Knex, scanId: string): Promise<string | null> {
  const row = await db('cli_vantages').select('payload').where({ scan_id: scanId }).first();
  return row ? (row.payload as string) : null;
}
