/**
 * The rubrics a report is scored with: the current one (frozen, `score`) and the preview of the
 * next (`preview`). What changed between them is derived from the two registries, never written
 * by hand, so the list cannot drift from the checks.
 */
import { CHECKS } from './checks/index.ts';
import { PREVIEW_CHECKS } from './checks/preview.ts';
import type { CheckDefinition } from './checks/define.ts';
import { PREVIEW_RUBRIC_VERSION, RUBRIC_VERSION } from './versions.ts';

export type RubricStage = 'current' | 'preview';
export interface Rubric { version: string; stage: RubricStage; checks: readonly CheckDefinition[] }

/** The rubric that scores reports (`score`). */
export const CURRENT_RUBRIC: Rubric = { version: RUBRIC_VERSION, stage: 'current', checks: CHECKS };
/** The preview of the next, scored beside it (`preview`); undefined once none is published. */
export const PREVIEW_RUBRIC: Rubric | undefined = { version: PREVIEW_RUBRIC_VERSION, stage: 'preview', checks: PREVIEW_CHECKS };

/** Every published rubric, the current one first. */
export const RUBRICS: readonly Rubric[] = PREVIEW_RUBRIC ? [CURRENT_RUBRIC, PREVIEW_RUBRIC] : [CURRENT_RUBRIC];

export function rubricOf(version: string): Rubric | undefined {
  return RUBRICS.find((r) => r.version === version);
}

/** `revised`: same id and weight, judged by a new definition (e.g. per agent instead of once). */
export interface RubricChange { checkId: string; change: 'added' | 'removed' | 'reweighted' | 'revised'; weightBefore: number | null; weightAfter: number | null; note: string }

/** Check by check, what `to` changes against `from`, in `to`'s order then removals. */
export function rubricChanges(from: Rubric, to: Rubric): RubricChange[] {
  const before = new Map(from.checks.map((c) => [c.id, c]));
  const after = new Map(to.checks.map((c) => [c.id, c]));
  const out: RubricChange[] = [];
  for (const c of to.checks) {
    const old = before.get(c.id);
    if (!old) out.push({ checkId: c.id, change: 'added', weightBefore: null, weightAfter: c.weight, note: c.name });
    else if (old.weight !== c.weight) out.push({ checkId: c.id, change: 'reweighted', weightBefore: old.weight, weightAfter: c.weight, note: c.name });
    else if (old !== c) out.push({ checkId: c.id, change: 'revised', weightBefore: old.weight, weightAfter: c.weight, note: c.revision ? `${c.name}: ${c.revision}` : c.name });
  }
  for (const c of from.checks) if (!after.has(c.id)) out.push({ checkId: c.id, change: 'removed', weightBefore: c.weight, weightAfter: null, note: c.name });
  return out;
}
