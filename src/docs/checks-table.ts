// The methodology's list of checks, rendered from the same registries as GET /api/checks:
// the current rubric, what it changed against the previous one, then what the preview of the
// next one changes.
import { buildCatalog } from '../scanner/catalog.ts';
import { CURRENT_RUBRIC, PREVIEW_RUBRIC } from '../scanner/rubrics.ts';

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
    ...(CURRENT_RUBRIC.follows ? releaseTable(catalog) : []),
    ...(PREVIEW_RUBRIC ? previewTable(buildCatalog(PREVIEW_RUBRIC)) : []),
  ].join('\n');
}

function changeRows(catalog: ReturnType<typeof buildCatalog>): string[] {
  const byId = new Map(catalog.checks.map((c) => [c.id, c]));
  return (catalog.changes ?? []).map((ch) => {
    const c = byId.get(ch.checkId);
    const weight = ch.change === 'added' ? `new, ${ch.weightAfter}` : ch.change === 'removed' ? `removed (was ${ch.weightBefore})` : ch.change === 'revised' ? `judged anew, ${ch.weightAfter}` : `${ch.weightBefore} → ${ch.weightAfter}`;
    return `| \`${ch.checkId}\` | ${ch.note} | ${c?.category ?? ''} | ${weight} | ${c?.why ?? ''} |`;
  });
}

function releaseTable(current: ReturnType<typeof buildCatalog>): string[] {
  return [
    '',
    `### What ${current.rubricVersion} changed against ${CURRENT_RUBRIC.follows}`,
    '',
    `A scan that asks for ${CURRENT_RUBRIC.follows} is still scored with it, and every report archived under it keeps it. `
      + `Its weight table: \`GET /api/checks?rubric=${CURRENT_RUBRIC.follows}\`.`,
    '',
    '| id | check | category | weight | why (with its source) |',
    '|---|---|---|---|---|',
    ...changeRows(current),
  ];
}

function previewTable(preview: ReturnType<typeof buildCatalog>): string[] {
  const rows = changeRows(preview);
  return [
    '',
    `### The next rubric: ${preview.rubricVersion} (preview)`,
    '',
    `Every report also carries \`preview\`: the score under ${preview.rubricVersion}, computed from the same evidence. The current score does not move. `
      + 'The preview keeps every current check and weight, judges some anew and adds others, as listed below; each new check reports which generation of its standard the site matched, '
      + 'and an optional file that is absent counts as not applicable. The full list: `GET /api/checks?rubric=' + preview.rubricVersion + '`.',
    '',
    ...(rows.length ? ['| id | check | category | weight | why (with its source) |', '|---|---|---|---|---|', ...rows] : ['It changes nothing yet: every check of the current rubric at its weight.']),
  ];
}
