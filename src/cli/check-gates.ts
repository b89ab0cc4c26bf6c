/**
 * Per-check CI gates, in the spirit of Lighthouse CI assertions: `--assert
 * <id>[=error|warn]` on single checks, and `--baseline <file>` that fails the
 * run when a check that passed in the baseline now fails. Pure functions of
 * the catalog, the report and the baseline file's text; the caller does I/O.
 *
 * A gate never passes on what was not measured: an error-level assertion on a
 * check the scan could not decide (inconclusive, error, skipped, or absent from
 * the report), or a check the baseline decided that this scan could not, is
 * "could not test" (exit 2), named with its reason. A baseline is written only
 * from a scan that decided enough checks to be scored, and only compared with
 * a scan of the domain it was written for. A baseline written under another
 * rubric than the scan's is "rubric changed": nothing is compared (a rubric's
 * checks judge differently, so neither a regression nor an improvement can be
 * told), and the run cannot test (exit 2) until --write-baseline refreshes it.
 */
import type { CheckAssertion } from './args.ts';
import { EXIT, type ExitCode } from './gate.ts';

export interface CheckLike { id: string; status: string; detail?: string }

/** A check's status is a measurement only when it is pass or fail. */
const DECIDED = new Set(['pass', 'fail']);
export const isDecided = (status: string): boolean => DECIDED.has(status);
export interface CatalogIds { rubricVersion: string; ids: readonly string[] }

/** The baseline file: the rubric it was measured with and each check's status then. */
export interface Baseline {
  baselineVersion: 1;
  rubricVersion: string;
  domain: string;
  writtenAt: string;
  checks: Record<string, string>;
}

export interface AssertionResult { id: string; level: 'error' | 'warn'; status: string; failed: boolean; undecided: boolean }
/** A check a gate needed that the scan could not decide: `status` is the check's status, or `absent`. */
export interface UndecidedCheck { id: string; status: string; why: string }
export interface BaselineComparison {
  file: string;
  regressions: string[];
  improvements: string[];
  undecided: UndecidedCheck[];
  /** Set when the baseline was written under another rubric than the scan's: then nothing above is compared. */
  rubricChanged?: { baseline: string; scan: string };
}

export interface ChecksGate {
  assertions: AssertionResult[];
  baseline: BaselineComparison | null;
  exitCode: ExitCode;
  /** One sentence per failed error assertion, warning, regression and undecided gated check, for stderr and the text report. */
  messages: string[];
  /** Gates refused as a whole (a baseline of another domain, a baseline not written): each makes the run "could not test". */
  refusals: string[];
}

/** Add whole-gate refusals: each is a "could not test" line, and any makes the exit 2. */
export function withRefusals(gate: ChecksGate, refusals: readonly string[]): ChecksGate {
  if (!refusals.length) return gate;
  return { ...gate, refusals: [...gate.refusals, ...refusals], messages: [...gate.messages, ...refusals.map((r) => `could not test: ${r}`)], exitCode: EXIT.couldNotTest };
}

/** The scan's own words for why a check was not decided (its detail), or that it is missing. */
function whyUndecided(check: CheckLike | undefined): string {
  if (!check) return 'the report has no such check';
  return check.detail ? `${check.status}: ${check.detail}` : check.status;
}

/** Unknown ids are a usage problem: say which and list the valid ones. */
export function unknownAssertIds(asserts: readonly CheckAssertion[], catalog: CatalogIds): string | null {
  const known = new Set(catalog.ids);
  const unknown = asserts.map((a) => a.id).filter((id) => !known.has(id));
  if (!unknown.length) return null;
  return `unknown check id${unknown.length > 1 ? 's' : ''} for --assert: ${unknown.join(', ')}. Valid ids (${catalog.rubricVersion}): ${catalog.ids.join(', ')}`;
}

export interface ReportLike { domain: string; score: { rubricVersion: string; decidedCount: number; minDecided: number }; checks: readonly CheckLike[] }

/** Why this scan cannot be a baseline (too few checks decided), or null when it can. */
export function baselineRefusal(report: ReportLike): string | null {
  const { decidedCount, minDecided } = report.score;
  if (decidedCount >= minDecided) return null;
  return `not writing a baseline: the scan decided ${decidedCount} check${decidedCount === 1 ? '' : 's'}, fewer than the ${minDecided} the rubric needs for a score, so it did not measure the site well enough to compare later runs with`;
}

export function baselineFrom(report: ReportLike, writtenAt: string): Baseline {
  return {
    baselineVersion: 1,
    rubricVersion: report.score.rubricVersion,
    domain: report.domain,
    writtenAt,
    checks: Object.fromEntries([...report.checks].sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => [c.id, c.status])),
  };
}

/** The refusal when a baseline was written for another domain than the one scanned. */
export function otherDomain(file: string, baseline: Baseline, domain: string): string | null {
  if (baseline.domain === domain) return null;
  return `the baseline ${file} was written for ${baseline.domain}, not ${domain}; compare a scan of ${baseline.domain}, or write a baseline for ${domain} with --baseline <file> --write-baseline`;
}

/**
 * Parse and validate a baseline against the catalog (and the domain, when it is known before
 * the scan); a string is the reason it cannot be used (exit 2).
 */
export function readBaseline(file: string, text: string, catalog: CatalogIds, domain?: string): Baseline | string {
  let doc: Partial<Baseline>;
  try {
    doc = JSON.parse(text) as Partial<Baseline>;
  } catch {
    return `the baseline ${file} is not JSON; write one with --baseline ${file} --write-baseline`;
  }
  if (doc?.baselineVersion !== 1 || typeof doc.rubricVersion !== 'string' || typeof doc.domain !== 'string' || !doc.checks || typeof doc.checks !== 'object') {
    return `the baseline ${file} is not an agent-readiness baseline; write one with --baseline ${file} --write-baseline`;
  }
  // Written under another rubric: read, and told as "rubric changed" once the scan names its rubric (decideCheckGates).
  if (doc.rubricVersion !== catalog.rubricVersion) return (domain !== undefined ? otherDomain(file, doc as Baseline, domain) : null) ?? (doc as Baseline);
  const known = new Set(catalog.ids);
  const gone = Object.keys(doc.checks).filter((id) => !known.has(id));
  if (gone.length) {
    return `the baseline ${file} is stale: check id${gone.length > 1 ? 's' : ''} ${gone.join(', ')} no longer exist${gone.length > 1 ? '' : 's'} in ${catalog.rubricVersion}; refresh it with --write-baseline`;
  }
  return (domain !== undefined ? otherDomain(file, doc as Baseline, domain) : null) ?? (doc as Baseline);
}

/** The "rubric changed" sentence: what was not compared, and the two ways on. */
export function rubricChangedMessage(file: string, baseline: string, scan: string): string {
  return `rubric changed: the baseline ${file} was written under ${baseline} and this scan was scored with ${scan}, so no check is compared (neither a regression nor an improvement); refresh it with --baseline ${file} --write-baseline, or scan with --rubric ${baseline} to compare with it`;
}

/** `rubricVersion`: the rubric that scored `checks`; a baseline written under another one is not compared. */
export function decideCheckGates(checks: readonly CheckLike[], asserts: readonly CheckAssertion[], baseline: { file: string; doc: Baseline } | null, rubricVersion?: string): ChecksGate {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const status = (id: string) => byId.get(id)?.status ?? 'absent';
  const messages: string[] = [];
  let couldNotTest = false;
  const assertions = asserts.map((a): AssertionResult => {
    const s = status(a.id);
    const failed = s === 'fail';
    const undecided = !isDecided(s);
    if (failed) messages.push(`${a.level === 'error' ? 'assertion failed' : 'warning'}: ${a.id} fails${a.level === 'warn' ? ' (--assert …=warn, not gating)' : ''}`);
    if (undecided && a.level === 'error') {
      couldNotTest = true;
      messages.push(`could not test: --assert ${a.id}: the scan could not decide this check (${whyUndecided(byId.get(a.id))})`);
    } else if (undecided) {
      messages.push(`warning: --assert ${a.id}=warn: the scan could not decide this check (${whyUndecided(byId.get(a.id))}); not gating`);
    }
    return { id: a.id, level: a.level, status: s, failed, undecided };
  });
  let comparison: BaselineComparison | null = null;
  if (baseline && rubricVersion !== undefined && baseline.doc.rubricVersion !== rubricVersion) {
    comparison = { file: baseline.file, regressions: [], improvements: [], undecided: [], rubricChanged: { baseline: baseline.doc.rubricVersion, scan: rubricVersion } };
    messages.push(`could not test: ${rubricChangedMessage(baseline.file, baseline.doc.rubricVersion, rubricVersion)}`);
    couldNotTest = true;
  } else if (baseline) {
    const regressions: string[] = [];
    const improvements: string[] = [];
    const undecided: UndecidedCheck[] = [];
    for (const [id, was] of Object.entries(baseline.doc.checks)) {
      const now = status(id);
      if (was === 'pass' && now === 'fail') regressions.push(id);
      if (was === 'fail' && now === 'pass') improvements.push(id);
      // What the baseline measured must be measured again, or the comparison says nothing.
      if (isDecided(was) && !isDecided(now)) undecided.push({ id, status: now, why: whyUndecided(byId.get(id)) });
    }
    comparison = { file: baseline.file, regressions, improvements, undecided };
    for (const id of regressions) messages.push(`regression: ${id} passed in the baseline and now fails`);
    for (const id of improvements) messages.push(`improvement: ${id} failed in the baseline and now passes`);
    for (const u of undecided) messages.push(`could not test: baseline ${u.id}: it was ${baseline.doc.checks[u.id]} in the baseline and this scan could not decide it (${u.why})`);
    if (undecided.length) couldNotTest = true;
  }
  const gating = assertions.some((a) => a.failed && a.level === 'error') || (comparison?.regressions.length ?? 0) > 0;
  return { assertions, baseline: comparison, exitCode: couldNotTest ? EXIT.couldNotTest : gating ? EXIT.gateFailed : EXIT.ok, messages, refusals: [] };
}

/** Could-not-test wins over a failed gate, which wins over a pass. */
export function combineExit(...codes: ExitCode[]): ExitCode {
  if (codes.includes(EXIT.couldNotTest)) return EXIT.couldNotTest;
  if (codes.includes(EXIT.gateFailed)) return EXIT.gateFailed;
  return EXIT.ok;
}
