/**
 * Per-check CI gates, in the spirit of Lighthouse CI assertions: `--assert
 * <id>[=error|warn]` on single checks, and `--baseline <file>` that fails the
 * run when a check that passed in the baseline now fails. Pure functions of
 * the catalog, the report and the baseline file's text; the caller does I/O.
 */
import type { CheckAssertion } from './args.ts';
import { EXIT, type ExitCode } from './gate.ts';

export interface CheckLike { id: string; status: string }
export interface CatalogIds { rubricVersion: string; ids: readonly string[] }

/** The baseline file: the rubric it was measured with and each check's status then. */
export interface Baseline {
  baselineVersion: 1;
  rubricVersion: string;
  domain: string;
  writtenAt: string;
  checks: Record<string, string>;
}

export interface AssertionResult { id: string; level: 'error' | 'warn'; status: string; failed: boolean }
export interface BaselineComparison { file: string; regressions: string[]; improvements: string[] }

export interface ChecksGate {
  assertions: AssertionResult[];
  baseline: BaselineComparison | null;
  exitCode: ExitCode;
  /** One sentence per failed error assertion, warning and regression, for stderr and the text report. */
  messages: string[];
}

/** Unknown ids are a usage problem: say which and list the valid ones. */
export function unknownAssertIds(asserts: readonly CheckAssertion[], catalog: CatalogIds): string | null {
  const known = new Set(catalog.ids);
  const unknown = asserts.map((a) => a.id).filter((id) => !known.has(id));
  if (!unknown.length) return null;
  return `unknown check id${unknown.length > 1 ? 's' : ''} for --assert: ${unknown.join(', ')}. Valid ids (${catalog.rubricVersion}): ${catalog.ids.join(', ')}`;
}

export function baselineFrom(report: { domain: string; score: { rubricVersion: string }; checks: readonly CheckLike[] }, writtenAt: string): Baseline {
  return {
    baselineVersion: 1,
    rubricVersion: report.score.rubricVersion,
    domain: report.domain,
    writtenAt,
    checks: Object.fromEntries([...report.checks].sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => [c.id, c.status])),
  };
}

/** Parse and validate a baseline against the catalog; a string is the reason it cannot be used (exit 2). */
export function readBaseline(file: string, text: string, catalog: CatalogIds): Baseline | string {
  let doc: Partial<Baseline>;
  try {
    doc = JSON.parse(text) as Partial<Baseline>;
  } catch {
    return `the baseline ${file} is not JSON; write one with --baseline ${file} --write-baseline`;
  }
  if (doc?.baselineVersion !== 1 || typeof doc.rubricVersion !== 'string' || !doc.checks || typeof doc.checks !== 'object') {
    return `the baseline ${file} is not an agent-readiness baseline; write one with --baseline ${file} --write-baseline`;
  }
  if (doc.rubricVersion !== catalog.rubricVersion) {
    return `the baseline ${file} is stale: it was written with ${doc.rubricVersion}, the service now scores with ${catalog.rubricVersion}; refresh it with --write-baseline`;
  }
  const known = new Set(catalog.ids);
  const gone = Object.keys(doc.checks).filter((id) => !known.has(id));
  if (gone.length) {
    return `the baseline ${file} is stale: check id${gone.length > 1 ? 's' : ''} ${gone.join(', ')} no longer exist${gone.length > 1 ? '' : 's'} in ${catalog.rubricVersion}; refresh it with --write-baseline`;
  }
  return doc as Baseline;
}

export function decideCheckGates(checks: readonly CheckLike[], asserts: readonly CheckAssertion[], baseline: { file: string; doc: Baseline } | null): ChecksGate {
  const status = new Map(checks.map((c) => [c.id, c.status]));
  const messages: string[] = [];
  const assertions = asserts.map((a): AssertionResult => {
    const s = status.get(a.id) ?? 'skipped';
    const failed = s === 'fail';
    if (failed) messages.push(`${a.level === 'error' ? 'assertion failed' : 'warning'}: ${a.id} fails${a.level === 'warn' ? ' (--assert …=warn, not gating)' : ''}`);
    return { id: a.id, level: a.level, status: s, failed };
  });
  let comparison: BaselineComparison | null = null;
  if (baseline) {
    const regressions: string[] = [];
    const improvements: string[] = [];
    for (const [id, was] of Object.entries(baseline.doc.checks)) {
      const now = status.get(id);
      if (was === 'pass' && now === 'fail') regressions.push(id);
      if (was === 'fail' && now === 'pass') improvements.push(id);
    }
    comparison = { file: baseline.file, regressions, improvements };
    for (const id of regressions) messages.push(`regression: ${id} passed in the baseline and now fails`);
    for (const id of improvements) messages.push(`improvement: ${id} failed in the baseline and now passes`);
  }
  const gating = assertions.some((a) => a.failed && a.level === 'error') || (comparison?.regressions.length ?? 0) > 0;
  return { assertions, baseline: comparison, exitCode: gating ? EXIT.gateFailed : EXIT.ok, messages };
}

/** Could-not-test wins over a failed gate, which wins over a pass. */
export function combineExit(...codes: ExitCode[]): ExitCode {
  if (codes.includes(EXIT.couldNotTest)) return EXIT.couldNotTest;
  if (codes.includes(EXIT.gateFailed)) return EXIT.gateFailed;
  return EXIT.ok;
}
