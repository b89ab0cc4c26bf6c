/**
 * The machine-facing renderings of one finished run: Markdown for pull-request
 * comments and GitHub step summaries, and JUnit XML (one test case per check,
 * so CI test panels show the rubric). Same input, same bytes. Text that can come
 * from the site is escaped for the format (sanitize.ts for Markdown, the `entities`
 * library for XML) on top of the control characters the caller already removed.
 */
import { escapeUTF8 } from 'entities/escape';
import type { ScanReport } from './api.ts';
import { fixLines, platformFixesOf } from './platform-fixes.ts';
import { revisedFindings } from './preview-findings.ts';
import type { ChecksGate } from './check-gates.ts';
import type { GateResult } from './gate.ts';
import { cleanLines, cleanText, markdownText } from './sanitize.ts';

export interface RunSummary {
  report: ScanReport;
  gate: GateResult;
  checks: ChecksGate;
  exitCode: number;
  fixes: Map<string, string>;
  /** Where it was scanned from, for the heading (the domain, or the local origin). */
  where: string;
  /** Run notices every format carries: an authenticated preview, a preview deployment (headers.ts). */
  notices?: string[];
}

const STATUS_ICON: Record<string, string> = { pass: '✅', fail: '❌', inconclusive: '❔', skipped: '⏭️', error: '⚠️' };
const VERDICT: Record<number, string> = { 0: 'passed', 1: 'failed', 2: 'could not test' };

const cell = markdownText;

/**
 * A code span that no text can break out of: the fence is one backtick longer than the longest
 * run inside (CommonMark 0.31, section 6.1), and a table's `|` cannot be escaped inside code,
 * so it is shown as the look-alike U+2223.
 */
function code(text: string): string {
  const t = cleanText(text).replace(/\|/g, '∣');
  const fence = '`'.repeat(Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${fence}${/^`|`$/.test(t) ? ` ${t} ` : t}${fence}`;
}

/** A link destination in angle brackets (CommonMark 6.3): only <, > and line breaks could end it. */
function linkTarget(url: string): string {
  return cleanText(url).replace(/[<>\\]/g, (c) => encodeURIComponent(c));
}

/** A fenced code block no content can close: the fence is longer than any backtick run inside (CommonMark 4.5). */
function fenced(text: string, indent: string, info = ''): string[] {
  const t = cleanLines(text).replace(/\n$/, '');
  const fence = '`'.repeat(Math.max(3, ...[...t.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${indent}${fence}${info}`, ...t.split('\n').map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/** A could-not-test run in Markdown: the target and the reason, both escaped. */
export function couldNotTestMarkdown(target: string, message: string): string {
  return `### agent-readiness: ${cell(target)}\n\n**Could not test:** ${cell(message)}\n`;
}

export function renderMarkdown(r: RunSummary): string {
  const rep = r.report;
  const score = rep.score.value === null ? 'no score' : `${rep.score.value}/100`;
  const out: string[] = [
    `### agent-readiness: ${cell(r.where)}`,
    '',
    `**Headline:** ${cell(rep.headline)} (confidence ${cell(rep.confidence)}) · **Score:** ${score} · ${cell(rep.score.rubricVersion)} · **Gate:** ${VERDICT[r.exitCode] ?? r.exitCode}`,
    '',
  ];
  for (const n of r.notices ?? []) out.push(`> **Note:** ${cell(n)}`, '');
  if (rep.preview) {
    out.push(`Next rubric: ${rep.preview.score.value === null ? 'not enough signal' : `${rep.preview.score.value}/100`} (${cell(rep.preview.rubricVersion)}, a preview)`, '');
    const findings = revisedFindings(rep);
    if (findings.length) out.push(...findings.map((f) => `- ${code(f.id)} (judged anew by the next rubric): ${cell(f.detail)}`), '');
  }
  const gates: string[] = [];
  if (r.gate.result !== 'absent') gates.push(`- min-score: ${r.gate.result}: ${cell(r.gate.message)}`);
  for (const a of r.checks.assertions) {
    const verdict = a.undecided ? (a.level === 'error' ? ' — **could not test**' : ' — warning, not decided') : a.failed ? (a.level === 'error' ? ' — **failed**' : ' — warning') : '';
    gates.push(`- assert ${code(a.id)} (${a.level}): ${cell(a.status)}${verdict}`);
  }
  if (r.checks.baseline) {
    const b = r.checks.baseline;
    if (b.rubricChanged) gates.push(`- baseline ${code(b.file)}: **rubric changed** (written under ${cell(b.rubricChanged.baseline)}, scored with ${cell(b.rubricChanged.scan)}): nothing compared; refresh it with \`--write-baseline\``);
    else gates.push(`- baseline ${code(b.file)}: ${b.regressions.length} regression(s), ${b.improvements.length} improvement(s), ${b.undecided.length} not decided`);
    for (const id of b.regressions) gates.push(`  - regression: ${code(id)} passed, now fails`);
    for (const id of b.improvements) gates.push(`  - improvement: ${code(id)} failed, now passes`);
    for (const u of b.undecided) gates.push(`  - **could not test**: ${code(u.id)} was decided in the baseline, not now (${cell(u.why)})`);
  }
  for (const refusal of r.checks.refusals) gates.push(`- **could not test**: ${cell(refusal)}`);
  if (gates.length) out.push('**Gates**', '', ...gates, '');
  out.push('| check | category | status | detail |', '|---|---|---|---|');
  for (const c of rep.checks) out.push(`| ${code(c.id)} | ${cell(c.category)} | ${STATUS_ICON[c.status] ?? ''} ${cell(c.status)} | ${cell(c.detail ?? '')} |`);
  out.push('');
  const fixes = rep.checks.filter((c) => c.status === 'fail' && (platformFixesOf(rep, c.id).length || r.fixes.get(c.id)));
  if (fixes.length) {
    out.push('**Fixes**', '');
    for (const c of fixes) {
      const generic = r.fixes.get(c.id);
      const platform = platformFixesOf(rep, c.id);
      for (const f of platform) {
        out.push(`- ${code(c.id)}: **fix on ${cell(f.platformName)}:** ${cell(f.setting)}. ${cell(f.text)} [docs](<${linkTarget(f.docUrl)}>)`);
        if (f.snippet) out.push('', ...fenced(f.snippet, '  '));
      }
      if (generic) out.push(platform.length ? `  - generic fix: ${cell(generic)}` : `- ${code(c.id)}: fix: ${cell(generic)}`);
    }
    out.push('');
  }
  if (rep.robotsPatch) {
    const p = rep.robotsPatch;
    out.push('**robots.txt that says what the site does**', '', cell(p.reason), '', ...fenced(p.unifiedDiff, '', 'diff'), '', cell(p.edgeAlternative.text), '');
  }
  if (rep.reportUrl) out.push(`[Full report](<${linkTarget(rep.reportUrl)}>)`, '');
  return `${out.join('\n')}\n`;
}

/** XML text or attribute value: the five special characters escaped by the `entities` library (its XML escape). */
function xml(text: string): string {
  return escapeUTF8(cleanText(text));
}

/** A could-not-test run in JUnit: one errored test case named for the scan. */
export function couldNotTestJunit(target: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-readiness" tests="1" failures="0" errors="1" skipped="0">\n  <testsuite name="agent-readiness ${xml(target)}" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="agent-readiness" name="scan">\n      <error message="${xml(message)}"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n`;
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
    ...(r.notices ?? []).map((n, i) => `      <property name="notice${i + 1}" value="${xml(n)}"/>`),
    '    </properties>',
  ];
  for (const c of rep.checks) {
    const open = `    <testcase classname="${xml(`agent-readiness.${c.category}`)}" name="${xml(c.id)}">`;
    const detail = xml(c.detail ?? '');
    if (c.status === 'pass') out.push(`    <testcase classname="${xml(`agent-readiness.${c.category}`)}" name="${xml(c.id)}"/>`);
    else if (c.status === 'fail') {
      const fix = fixLines(rep, c.id, r.fixes.get(c.id));
      out.push(open, `      <failure message="${detail || 'check failed'}">${detail}${fix.map((l) => `\n${xml(l)}`).join('')}</failure>`, '    </testcase>');
    } else if (c.status === 'error') out.push(open, `      <error message="${detail || 'check errored'}"/>`, '    </testcase>');
    else out.push(open, `      <skipped message="${xml(c.status)}${detail ? `: ${detail}` : ''}"/>`, '    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
