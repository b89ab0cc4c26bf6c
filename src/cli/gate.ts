/**
 * The CI gate and the exit codes (service spec, "Companion command-line
 * client"): 0 completed and the gate passed or was absent, 1 the gate failed,
 * 2 could not test. A missing measurement is never a failing site: under
 * --min-score a null score or an `unknown` headline is "could not test".
 */
export const EXIT = { ok: 0, gateFailed: 1, couldNotTest: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface GateResult {
  minScore: number | null;
  result: 'absent' | 'passed' | 'failed' | 'could-not-test';
  score: number | null;
  exitCode: ExitCode;
  message: string;
}

export function decideGate(report: { headline: string; score: { value: number | null } }, minScore: number | undefined): GateResult {
  const score = report.score.value;
  if (minScore === undefined) return { minScore: null, result: 'absent', score, exitCode: EXIT.ok, message: 'no --min-score gate' };
  const base = { minScore, score };
  if (report.headline === 'unknown') {
    return { ...base, result: 'could-not-test', exitCode: EXIT.couldNotTest, message: 'the scan could not measure the site (headline unknown), so the gate cannot be judged' };
  }
  if (score === null) {
    return { ...base, result: 'could-not-test', exitCode: EXIT.couldNotTest, message: 'too few checks could be decided for a score, so the gate cannot be judged' };
  }
  return score >= minScore
    ? { ...base, result: 'passed', exitCode: EXIT.ok, message: `score ${score} meets --min-score ${minScore}` }
    : { ...base, result: 'failed', exitCode: EXIT.gateFailed, message: `score ${score} is below --min-score ${minScore}` };
}
