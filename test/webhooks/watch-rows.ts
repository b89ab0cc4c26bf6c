// Deliveries go only to active watches (src/webhooks/deliveries.ts asks before storing and
// before each attempt), so a test that sends events directly first writes the watch they
// belong to, as createWatch and its confirmation would have left it.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { insertWatch, type WatchStatus } from '../../src/storage/queries/watches.ts';

/** A watch row of this status (active by default); returns its id. */
export async function watchRow(db: Knex, status: WatchStatus = 'active', over: { id?: string; created_at?: string } = {}): Promise<string> {
  const id = over.id ?? randomUUID();
  const at = over.created_at ?? new Date().toISOString();
  await insertWatch(db, {
    id, domain: 'hooks-owner.world-fixtures.com', lead_name: 'Ada', lead_email: 'ada@world-fixtures.com', lead_phone: null, lead_role: null,
    every: 'day', notify_email: false, webhook_url: 'https://hooks.world-fixtures.com/in', secret_version: 1, threshold: 5, status,
    key_id: null, created_at: at, confirmed_at: status === 'pending-confirmation' ? null : at, ended_at: status === 'ended' ? at : null, ended_by: status === 'ended' ? 'deleted' : null,
  });
  return id;
}
