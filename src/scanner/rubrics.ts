/**
 * The published rubrics: the current one (new scans' `score`), the one before it (still selectable,
 * and the rubric of every report archived under it) and the preview of the next (`preview`).
 * What changed between two of them is derived from their registries, never written by hand, so
 * the list cannot drift from the checks.
 */
import { CHECKS } from './checks/index.ts';
import { V12_CHECKS } from './checks/v1.2.ts';
import { PREVIEW_CHECKS } from './checks/preview.ts';
import type { CheckDefinition } from './checks/define.ts';
import { PREVIEW_RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION, RUBRIC_VERSION, SCORING_RUBRIC_VERSIONS } from './versions.ts';

/** `current` scores new scans by default; `previous` still scores a scan that asks for it; `preview` is only scored beside. */
export type RubricStage = 'current' | 'previous' | 'preview';
export interface Rubric {
  version: string;
  stage: RubricStage;
  checks: readonly CheckDefinition[];
  /** The rubric this one changes (its catalog lists the changes); absent for the oldest published. */
  follows?: string;
}

/** The rubric that scores new reports (`score`) unless another is asked for. */
export const CURRENT_RUBRIC: Rubric = { version: RUBRIC_VERSION, stage: 'current', checks: V12_CHECKS, follows: PREVIOUS_RUBRIC_VERSION };
/** The rubric before it: a scan may still ask for it, and its archived reports keep it. */
export const PREVIOUS_RUBRIC: Rubric = { version: PREVIOUS_RUBRIC_VERSION, stage: 'previous', checks: CHECKS };
/** The preview of the next, scored beside it (`preview`); undefined once none is published. */
export const PREVIEW_RUBRIC: Rubric | undefined = { version: PREVIEW_RUBRIC_VERSION, stage: 'preview', checks: PREVIEW_CHECKS, follows: RUBRIC_VERSION };

/** Every published rubric, the current one first, then the previous, then the preview. */
export const RUBRICS: readonly Rubric[] = PREVIEW_RUBRIC ? [CURRENT_RUBRIC, PREVIOUS_RUBRIC, PREVIEW_RUBRIC] : [CURRENT_RUBRIC, PREVIOUS_RUBRIC];

/** The rubrics a scan may be scored with (`rubric` on a scan request), the default first. */
export const SCORING_RUBRICS: readonly Rubric[] = SCORING_RUBRIC_VERSIONS.map((v) => RUBRICS.find((r) => r.version === v && r.stage !== 'preview')!);

export function rubricOf(version: string): Rubric | undefined {
  return RUBRICS.find((r) => r.version === version);
}

/** A rubric a scan may be scored with, the current one when none is named; undefined for anything else (a preview included). */
export function scoringRubric(version: string | undefined): Rubric | undefined {
  if (version === undefined) return CURRENT_RUBRIC;
  return SCORING_RUBRICS.find((r) => r.version === version);
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
