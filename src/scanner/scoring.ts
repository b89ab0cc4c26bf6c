/**
 * The score of shared/design/verdicts.md, computed exactly in integers:
 *   value = floor((100·Σ wᵢcᵢ + ½·Σ wᵢ) / Σ wᵢ) over decided checks,
 * with credits held in thousandths, so
 *   value = floor((100·N + 500·W) / (1000·W)),  N = Σ wᵢ·creditᵢ, W = Σ wᵢ.
 * Inconclusive, skipped and error checks are in neither sum.
 */
import { RUBRIC_VERSION } from './versions.ts';
import { CATEGORIES } from './checks/define.ts';
import type { CheckResult, Score } from './types.ts';

/** Fewer decided checks than this: no score ("not enough signal"). */
export const MIN_DECIDED = 8;

export interface ScoredCheck { result: CheckResult; thousandths: number }

function decided(c: ScoredCheck): boolean {
  return c.result.status === 'pass' || c.result.status === 'fail';
}

/** Round-half-up weighted mean in percent, or null with no decided weight. */
export function weightedPercent(checks: readonly ScoredCheck[]): number | null {
  let n = 0;
  let w = 0;
  for (const c of checks) {
    if (!decided(c) || c.result.weight <= 0) continue;
    n += c.result.weight * c.thousandths;
    w += c.result.weight;
  }
  return w === 0 ? null : Math.floor((100 * n + 500 * w) / (1000 * w));
}

export function computeScore(checks: readonly ScoredCheck[], rubricVersion: string = RUBRIC_VERSION): Score {
  const decidedCount = checks.filter(decided).length;
  const value = decidedCount < MIN_DECIDED ? null : weightedPercent(checks);
  const categories: Record<string, number | null> = {};
  for (const cat of CATEGORIES) categories[cat] = weightedPercent(checks.filter((c) => c.result.category === cat));
  return {
    value,
    display: value === null ? 'not enough signal' : `${value}/100`,
    decidedCount,
    minDecided: MIN_DECIDED,
    categories,
    rubricVersion,
  };
}
