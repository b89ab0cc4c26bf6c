// Domains excluded from scanning at their owner's request. An exclusion covers the domain and
// every name below it (an owner asking for example.org also means www. and shop.example.org).
import type { Knex } from 'knex';

/** The domain and its parent domains down to two labels: a.b.example.org → [a.b.example.org, b.example.org, example.org]. */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

export async function isExcludedInTable(db: Knex, domain: string): Promise<boolean> {
  const row = await db('excluded_domains').select('domain').whereIn('domain', domainAndParents(domain)).first();
  return row !== undefined;
}

export async function addExcludedDomain(db: Knex, domain: string, reason: string | null, at: string): Promise<void> {
  await db('excluded_domains').insert({ domain, reason, added_at: at }).onConflict('domain').ignore();
}
