// Owner-requested exclusions: EXCLUDED_DOMAINS plus the excluded_domains table. Either
// source covers the domain and every name below it.
import type { Knex } from 'knex';
import { AppError } from '../errors.ts';
import { domainAndParents, isExcludedInTable } from '../storage/queries/excludedDomains.ts';

export async function isExcluded(db: Knex, configured: readonly string[], domain: string): Promise<boolean> {
  const names = domainAndParents(domain);
  if (names.some((n) => configured.includes(n))) return true;
  return isExcludedInTable(db, domain);
}

export function excludedError(domain: string): AppError {
  return new AppError('EXCLUDED_DOMAIN', {
    error: "This domain is excluded from scanning at its owner's request.",
    domain,
  });
}
