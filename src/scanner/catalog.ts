/**
 * GET /api/checks: the check catalog of each published rubric (its per-check weight table),
 * derived from the registries.
 */
import { CURRENT_RUBRIC, RUBRICS, rubricChanges, rubricOf, type Rubric, type RubricChange, type RubricStage } from './rubrics.ts';
import { MIN_DECIDED } from './scoring.ts';
import { PROFILES, type Profile } from './types.ts';

export interface CheckCatalog {
  rubricVersion: string;
  stage: RubricStage;
  /** What this rubric changes against the one it follows (the preview: the current one; the current one: the previous); absent for the oldest. */
  changes?: RubricChange[];
  minDecidedForGrade: number;
  profiles: Profile[];
  scoring: string;
  contract: { idStability: string; versioning: string; deprecation: string };
  checks: Array<{ id: string; name: string; category: string; why: string; fix: string; weight: number; profiles: Profile[] }>;
}

export const SCORING_TEXT =
  'score.value = floor((100 × Σ wᵢ·cᵢ + ½·Σ wᵢ) / Σ wᵢ) over the decided checks (status pass or fail) that apply to the report\'s profile, ' +
  'where wᵢ is the check weight and cᵢ its credit (pass without credit = 1, fail without credit = 0): the weighted mean in percent, rounded half up, ' +
  'computed exactly in integers. Inconclusive, skipped and error checks are left out of both sums and never count against the site. ' +
  `score.value is null ("not enough signal") when fewer than ${MIN_DECIDED} checks are decided. Category scores use the same formula within one category and are null when none of its checks decided.`;

export const CONTRACT = {
  idStability: 'A check id, once published, keeps its meaning for as long as it exists: it is never reused for a different check and never renamed. CI may gate on ids.',
  versioning: 'Weights, thresholds, profiles and the score formula are frozen per rubric version (rubricVersion). Any change to a check\'s id set or weight publishes a new rubric version; reports carry the rubric, roster and fingerprint versions they were scored with and are never rescored silently.',
  deprecation: 'A check to be removed is first announced in the catalog of a new rubric version with weight 0, kept at least one rubric version, and only then dropped; its id is never reused.',
};

/** Every check of every published rubric, once per id (ids keep their meaning across rubrics). */
export function everyCatalogCheck(): CheckCatalog['checks'] {
  const seen = new Map<string, CheckCatalog['checks'][number]>();
  for (const r of RUBRICS) for (const c of buildCatalog(r).checks) if (!seen.has(c.id)) seen.set(c.id, c);
  return [...seen.values()];
}

/** A published catalog and its JSON, serialised once (it never changes while the process runs). */
export interface PublishedCatalog { catalog: CheckCatalog; json: Buffer }

/** Every rubric's catalog by version, the current one first. */
export function buildCatalogs(): ReadonlyMap<string, PublishedCatalog> {
  return new Map(RUBRICS.map((r) => {
    const catalog = buildCatalog(r);
    return [r.version, { catalog, json: Buffer.from(JSON.stringify(catalog)) }];
  }));
}

/** The catalog of one rubric (the current one by default); every published rubric has one. */
export function buildCatalog(rubric: Rubric = CURRENT_RUBRIC): CheckCatalog {
  return {
    rubricVersion: rubric.version,
    stage: rubric.stage,
    ...(rubric.follows ? { changes: rubricChanges(rubricOf(rubric.follows)!, rubric) } : {}),
    minDecidedForGrade: MIN_DECIDED,
    profiles: [...PROFILES],
    scoring: SCORING_TEXT,
    contract: { ...CONTRACT },
    checks: rubric.checks.map((c) => ({ id: c.id, name: c.name, category: c.category, why: c.why, fix: c.fix, weight: c.weight, profiles: [...c.profiles] })),
  };
}
