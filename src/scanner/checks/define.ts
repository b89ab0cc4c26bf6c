/**
 * The shape of a rubric check and small helpers to build outcomes.
 * Credit is carried in thousandths (integers) so the score stays exact.
 */
import type { ScanEvidence } from '../evidence.ts';
import type { AgentRow } from '../matrix.ts';
import type { CheckStatus, Profile } from '../types.ts';

export type Category = 'access' | 'policy' | 'discovery' | 'content' | 'trust';
export const CATEGORIES: readonly Category[] = ['access', 'policy', 'discovery', 'content', 'trust'];

export interface Outcome {
  status: CheckStatus;
  /** 0..1000 for decided checks; absent means 1000 for pass, 0 for fail. */
  credit?: number;
  detail: string;
  /**
   * Which generation of its standard the evidence matched (e.g. "ARD v0.91 (ard.json)" versus
   * "ai-catalog.json (before ARD v0.91)"), so a report explains why scanners disagree.
   */
  generation?: string;
}

export interface CheckDefinition {
  /** `category.name`, equal to the file name; stable across rubric versions. */
  id: string;
  name: string;
  category: Category;
  /** Frozen per rubric version. */
  weight: number;
  /** Profiles the check applies to; elsewhere it is reported `skipped`. */
  profiles: readonly Profile[];
  why: string;
  fix: string;
  /** The standard or convention the check enforces. */
  standard: string;
  /** Rubric version that introduced the check. */
  since: string;
  /**
   * Set on a preview rubric's new definition of a current check (checks/revised/): what it
   * measures differently. The id keeps its meaning; the weight and profiles stay those of the
   * current rubric, so the preview's change list calls it `revised`.
   */
  revision?: string;
  evaluate(ev: ScanEvidence): Outcome;
}

export const ALL: readonly Profile[] = ['general', 'dev-platform', 'docs', 'publisher'];

export const pass = (detail: string): Outcome => ({ status: 'pass', detail });
export const fail = (detail: string): Outcome => ({ status: 'fail', detail });
export const inconclusive = (detail: string): Outcome => ({ status: 'inconclusive', detail });
export const skipped = (detail: string): Outcome => ({ status: 'skipped', detail });

/** The same outcome, labelled with the generation of the standard it matched. */
export const matched = (generation: string, o: Outcome): Outcome => ({ ...o, generation });

/** Partial credit: `pass` from one half up, `fail` below, credit kept either way. */
export function partial(thousandths: number, detail: string): Outcome {
  const credit = Math.max(0, Math.min(1000, Math.floor(thousandths)));
  if (credit === 1000) return pass(detail);
  if (credit === 0) return fail(detail);
  return { status: credit >= 500 ? 'pass' : 'fail', credit, detail };
}

/** Round-half-up mean of thousandth values, in integers. */
export function meanThousandths(values: readonly number[]): number {
  const d = values.length;
  const sum = values.reduce((a, b) => a + b, 0);
  return Math.floor((2 * sum + d) / (2 * d));
}

/** An agent's edge value: share of its decided networks where it passed (0, 500, 1000). Undefined when undecided. */
export function agentValue(row: AgentRow): number | undefined {
  if (row.decided.length === 0) return undefined;
  return Math.floor((1000 * row.passed.length) / row.decided.length);
}

/** Probeable, scored agents of some intents (context-only agents never count). */
export function rowsOf(ev: ScanEvidence, intents: readonly string[]): AgentRow[] {
  return ev.rows.filter((r) => !r.agent.tokenOnly && !r.agent.contextOnly && intents.includes(r.agent.intent));
}

/**
 * Shared by the per-intent access checks: mean edge value over agents that
 * robots.txt does not turn away (their edge block is consistent, not a fault).
 */
export function accessOver(ev: ScanEvidence, intents: readonly string[], minDecided: number, label: string): Outcome {
  if (ev.usable.length === 0) return inconclusive('no network could load the home page as a browser, so agent access cannot be judged');
  const considered = rowsOf(ev, intents).filter((r) => r.robots.says !== 'blocked');
  const values = considered.map(agentValue).filter((v): v is number => v !== undefined);
  if (values.length < minDecided) return inconclusive(`only ${values.length} ${label} could be decided`);
  const denied = considered.filter((r) => r.denied.length > 0).map((r) => r.agent.token);
  const value = meanThousandths(values);
  return partial(value, denied.length ? `turned away at the edge: ${denied.join(', ')} (${values.length} decided)` : `all ${values.length} decided ${label} received the page`);
}

export function homeMissing(ev: ScanEvidence): Outcome | undefined {
  return ev.home && ev.page ? undefined : inconclusive('the home page could not be loaded as a browser from any network');
}
