// The methodology's list of checks, rendered from the same registry as GET /api/checks.
import { buildCatalog } from '../scanner/catalog.ts';

export function checksTable(): string {
  const catalog = buildCatalog();
  const rows = catalog.checks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.category} | ${c.weight} | ${c.profiles.join(', ')} |`);
  return [
    `### The checks of ${catalog.rubricVersion}`,
    '',
    `A score needs at least ${catalog.minDecidedForGrade} decided checks. Weight is the check's weight in the profiles listed.`,
    '',
    '| id | check | category | weight | profiles |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
