/**
 * The machine-facing renderings of one finished run: Markdown for pull-request
 * comments and GitHub step summaries, and JUnit XML (one test case per check,
 * so CI test panels show the rubric). Same input, same bytes.
 */
import type { ScanReport } from './api.ts';
import type { ChecksGate } from './check-gates.ts';
import type { GateResult } from './gate.ts';

export interface RunSummary {
  report: ScanReport;
  gate: GateResult;
  checks: ChecksGate;
  exitCode: number;
  fixes: Map<string, string>;
  /** Where it was scanned from, for the heading (the domain, or the local origin). */
  where: string;
}

const STATUS_ICON: Record<string, string> = { pass: '✅', fail: '❌', inconclusive: '❔', skipped: '⏭️', error: '⚠️' };
const VERDICT: Record<number, string> = { 0: 'passed', 1: 'failed', 2: 'could not test' };

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderMarkdown(r: RunSummary): string {
  const rep = r.report;
  const score = rep.score.value === null ? 'no score' : `${rep.score.value}/100`;
  const out: string[] = [
    `### agent-readiness: ${cell(r.where)}`,
    '',
    `**Headline:** ${rep.headline} (confidence ${rep.confidence}) · **Score:** ${score} · ${rep.score.rubricVersion} · **Gate:** ${VERDICT[r.exitCode] ?? r.exitCode}`,
    '',
  ];
  if (rep.preview) out.push(`Next rubric: ${rep.preview.score.value === null ? 'not enough signal' : `${rep.preview.score.value}/100`} (${rep.preview.rubricVersion}, a preview)`, '');
  const gates: string[] = [];
  if (r.gate.result !== 'absent') gates.push(`- min-score: ${r.gate.result}: ${r.gate.message}`);
  for (const a of r.checks.assertions) gates.push(`- assert \`${a.id}\` (${a.level}): ${a.status}${a.failed ? (a.level === 'error' ? ' — **failed**' : ' — warning') : ''}`);
  if (r.checks.baseline) {
    const b = r.checks.baseline;
    gates.push(`- baseline \`${cell(b.file)}\`: ${b.regressions.length} regression(s), ${b.improvements.length} improvement(s)`);
    for (const id of b.regressions) gates.push(`  - regression: \`${id}\` passed, now fails`);
    for (const id of b.improvements) gates.push(`  - improvement: \`${id}\` failed, now passes`);
  }
  if (gates.length) out.push('**Gates**', '', ...gates, '');
  out.push('| check | category | status | detail |', '|---|---|---|---|');
  for (const c of rep.checks) out.push(`| \`${c.id}\` | ${c.category} | ${STATUS_ICON[c.status] ?? ''} ${c.status} | ${cell(c.detail ?? '')} |`);
  out.push('');
  if (rep.reportUrl) out.push(`[Full report](${rep.reportUrl})`, '');
  return `${out.join('\n')}\n`;
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!)
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

/** One testcase per check: fail = failure, inconclusive and skipped = skipped, error = error. */
export function renderJunit(r: RunSummary): string {
  const rep = r.report;
  const count = (s: string) => rep.checks.filter((c) => c.status === s).length;
  const skipped = count('inconclusive') + count('skipped');
  const suite = `agent-readiness ${r.where}`;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-readiness" tests="${rep.checks.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${skipped}">`,
    `  <testsuite name="${xml(suite)}" tests="${rep.checks.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${skipped}" timestamp="${xml(rep.scannedAt)}">`,
    '    <properties>',
    `      <property name="headline" value="${xml(rep.headline)}"/>`,
    `      <property name="score" value="${rep.score.value ?? ''}"/>`,
    `      <property name="rubricVersion" value="${xml(rep.score.rubricVersion)}"/>`,
    ...(rep.preview ? [`      <property name="nextRubricScore" value="${rep.preview.score.value ?? ''}"/>`, `      <property name="nextRubricVersion" value="${xml(rep.preview.rubricVersion)}"/>`] : []),
    ...(rep.reportUrl ? [`      <property name="reportUrl" value="${xml(rep.reportUrl)}"/>`] : []),
    '    </properties>',
  ];
  for (const c of rep.checks) {
    const open = `    <testcase classname="${xml(`agent-readiness.${c.category}`)}" name="${xml(c.id)}">`;
    const detail = xml(c.detail ?? '');
    if (c.status === 'pass') out.push(`    <testcase classname="${xml(`agent-readiness.${c.category}`)}" name="${xml(c.id)}"/>`);
    else if (c.status === 'fail') {
      const fix = r.fixes.get(c.id);
      out.push(open, `      <failure message="${detail || 'check failed'}">${detail}${fix ? `\nfix: ${xml(fix)}` : ''}</failure>`, '    </testcase>');
    } else if (c.status === 'error') out.push(open, `      <error message="${detail || 'check errored'}"/>`, '    </testcase>');
    else out.push(open, `      <skipped message="${xml(c.status)}${detail ? `: ${detail}` : ''}"/>`, '    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
