/**
 * Running a registry over the evidence: profile gating, error capture and the score. Every
 * registry check appears in `checks`; checks outside the profile are `skipped` and never counted.
 * The rubric the scan asked for (the current one by default, or the previous) scores the report;
 * the preview rubric is scored beside it, from the same evidence, and never changes the score.
 */
import type { CheckDefinition } from './checks/define.ts';
import { CURRENT_RUBRIC as CURRENT, PREVIEW_RUBRIC as PREVIEW, rubricChanges, type Rubric } from './rubrics.ts';
import { computeScore, type ScoredCheck } from './scoring.ts';
import type { ScanEvidence } from './evidence.ts';
import type { CheckResult, Profile, RubricPreview, Score } from './types.ts';

export function runCheck(def: CheckDefinition, ev: ScanEvidence, profile: Profile): ScoredCheck {
  const base = { id: def.id, category: def.category, weight: def.weight };
  if (!def.profiles.includes(profile)) {
    return { result: { ...base, status: 'skipped', detail: `not part of the ${profile} profile` }, thousandths: 0 };
  }
  try {
    const o = def.evaluate(ev);
    const result: CheckResult = { ...base, status: o.status, detail: o.detail };
    let thousandths = o.status === 'pass' ? 1000 : 0;
    if (o.credit !== undefined && (o.status === 'pass' || o.status === 'fail')) {
      result.credit = o.credit / 1000;
      thousandths = o.credit;
    }
    if (o.generation !== undefined) result.generation = o.generation;
    return { result, thousandths };
  } catch (err) {
    // A bug in one check must not sink the scan; `error` is excluded from the score.
    return { result: { ...base, status: 'error', detail: `check failed to evaluate: ${(err as Error).message}` }, thousandths: 0 };
  }
}

export function runRubric(ev: ScanEvidence, profile: Profile | null, rubric: Rubric = CURRENT): { checks: CheckResult[]; score: Score } {
  const scored = rubric.checks.map((def) => runCheck(def, ev, profile ?? 'general'));
  return { checks: scored.map((s) => s.result), score: computeScore(scored, rubric.version) };
}

/** The preview rubric's score, checks and changes, or undefined when no preview is published. */
export function runPreview(ev: ScanEvidence, profile: Profile | null): RubricPreview | undefined {
  if (!PREVIEW) return undefined;
  return { rubricVersion: PREVIEW.version, ...runRubric(ev, profile, PREVIEW), changes: rubricChanges(CURRENT, PREVIEW) };
}
