/**
 * `agent-readiness diff <scanId> <otherScanId>`: what changed between two archived reports,
 * read through the generated client (GET /r/{scanId}/diff/{otherScanId}) and printed in every
 * --format. Text from the site (robots.txt lines) reaches a terminal, a CI log or a pull-request
 * comment: control characters are dropped everywhere, and Markdown keeps it inside a fence
 * longer than any backtick run it holds. Exit 0 once compared, 2 when it could not compare.
 */
import { escapeUTF8 } from 'entities/escape';
import { connectApi, type ReportDiff } from './api.ts';
import type { DiffOptions } from './args.ts';
import type { Env } from './proxy-env.ts';
import { cleanText, markdownText } from './sanitize.ts';

export interface DiffIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Env;
  version: string;
}

const EXIT_COULD_NOT_TEST = 2;
const NET: Record<string, string> = { networkA: 'network A', networkB: 'network B' };

/** Site text as the scan's formats print it (sanitize.ts), line by line so a diff keeps its lines. */
export function plain(text: string): string {
  return text.split('\n').map(cleanText).join('\n');
}

const DENIALS = new Set(['challenge', 'block', 'rate-limited', 'auth']);
/** The changes a watch would alert on, as the CLI's gate-like markers (a pass that became a fail or a denial). */
const regressedCheck = (c: ReportDiff['checks'][number]) => c.before?.status === 'pass' && c.after?.status === 'fail';
const regressedCell = (c: ReportDiff['cells'][number]) => c.edge.before === 'pass' && DENIALS.has(String(c.edge.after)) && c.usable.before && c.usable.after;

function cellLine(c: ReportDiff['cells'][number]): string {
  const where = c.network ? NET[c.network] ?? c.network : 'robots.txt only';
  const robots = c.robotsSays.before === c.robotsSays.after ? `robots.txt ${c.robotsSays.after}` : `robots.txt ${c.robotsSays.before} → ${c.robotsSays.after}`;
  const edge = c.network ? `, edge ${c.edge.before} → ${c.edge.after}${c.usable.after ? '' : ' (browser control failed: not measured)'}` : '';
  return `${c.agent} on ${where}: ${robots}${edge}`;
}

const checkState = (s: ReportDiff['checks'][number]['before']) => (s ? `${s.status}${s.credit !== undefined ? ` (${Math.round(s.credit * 100)} %)` : ''}` : 'absent');

export function renderDiffText(d: ReportDiff): string {
  const score = (v: number | null) => (v === null ? 'no score' : String(v));
  const out = [
    `agent-readiness diff: ${plain(d.domain)}`,
    `From ${d.from.scannedAt}  ${d.from.reportUrl}`,
    `To   ${d.to.scannedAt}  ${d.to.reportUrl}`,
    '',
    `Headline: ${d.headline.before} → ${d.headline.after}${d.headline.changed ? '' : ' (unchanged)'}`,
    `Score: ${score(d.score.before)} → ${score(d.score.after)}${d.score.delta ? ` (${d.score.delta > 0 ? '+' : ''}${d.score.delta})` : ''}${d.sameRubric ? '' : ` (rubrics differ: ${d.from.rubricVersion} → ${d.to.rubricVersion}, not compared)`}`,
    `Confidence: ${d.confidence.before} → ${d.confidence.after}`,
    '',
  ];
  if (d.summary.length === 0) out.push('Nothing changed between these two scans.', '');
  else out.push('What changed:', ...d.summary.map((s) => `  - ${plain(s)}`), '');
  if (d.cells.length) out.push('Agents:', ...d.cells.map((c) => `  ${regressedCell(c) ? '✕' : '·'} ${cellLine(c)}`), '');
  out.push(`robots.txt: ${plain(d.robotsTxt.note)}`);
  if (d.robotsTxt.unifiedDiff) out.push(...plain(d.robotsTxt.unifiedDiff).replace(/\n$/, '').split('\n').map((l) => `    ${l}`));
  for (const q of d.robotsTxt.requesters ?? []) {
    out.push(`  ${plain(q.note)}`);
    if (q.unifiedDiff) out.push(...plain(q.unifiedDiff).replace(/\n$/, '').split('\n').map((l) => `    ${l}`));
  }
  out.push('');
  if (d.checks.length) out.push('Checks:', ...d.checks.map((c) => `  ${regressedCheck(c) ? '✕' : '·'} ${c.id}: ${checkState(c.before)} → ${checkState(c.after)}`), '');
  if (d.vendors.appeared.length || d.vendors.left.length) {
    out.push(`Edge vendors now seen: ${d.vendors.appeared.map((v) => v.name).join(', ') || 'none'}; no longer seen: ${d.vendors.left.map((v) => v.name).join(', ') || 'none'}`, '');
  }
  out.push(`Comparison: ${d.diffUrl}`);
  return `${out.join('\n')}\n`;
}

const cellMd = (text: string) => markdownText(text);

/** A fenced block whose fence is longer than any run of backticks inside it, so site text cannot close it. */
function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${plain(text).replace(/\n$/, '')}\n${f}`;
}

export function renderDiffMarkdown(d: ReportDiff): string {
  const out = [
    `### agent-readiness diff: ${cellMd(d.domain)}`,
    '',
    `From [${d.from.scannedAt}](${d.from.reportUrl}) to [${d.to.scannedAt}](${d.to.reportUrl}) · [comparison](${d.diffUrl})`,
    '',
    '| | before | after |',
    '|---|---|---|',
    `| headline | ${d.headline.before} | ${d.headline.after} |`,
    `| score | ${d.score.before ?? 'no score'} | ${d.score.after ?? 'no score'}${d.score.delta ? ` (${d.score.delta > 0 ? '+' : ''}${d.score.delta})` : ''} |`,
    `| confidence | ${d.confidence.before} | ${d.confidence.after} |`,
    '',
  ];
  out.push(...(d.summary.length ? d.summary.map((s) => `- ${cellMd(s)}`) : ['Nothing changed between these two scans.']), '');
  if (d.cells.length) {
    out.push('| agent | network | robots.txt | edge |', '|---|---|---|---|');
    for (const c of d.cells) out.push(`| ${cellMd(c.agent)} | ${c.network ? NET[c.network] : 'robots.txt only'} | ${c.robotsSays.before} → ${c.robotsSays.after} | ${c.network ? `${regressedCell(c) ? '❌ ' : ''}${c.edge.before} → ${c.edge.after}` : ''} |`);
    out.push('');
  }
  out.push(`**robots.txt:** ${cellMd(d.robotsTxt.note)}`, '');
  if (d.robotsTxt.unifiedDiff) out.push(fence(d.robotsTxt.unifiedDiff, 'diff'), '');
  for (const q of d.robotsTxt.requesters ?? []) {
    out.push(cellMd(q.note), '');
    if (q.unifiedDiff) out.push(fence(q.unifiedDiff, 'diff'), '');
  }
  if (d.checks.length) {
    out.push('| check | before | after |', '|---|---|---|');
    for (const c of d.checks) out.push(`| \`${c.id}\` | ${checkState(c.before)} | ${regressedCheck(c) ? '❌ ' : ''}${checkState(c.after)} |`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

function xml(text: string): string {
  return escapeUTF8(cleanText(text));
}

/** One test case per changed check and cell; a pass that became a fail or a denial is a failure, any other change passes. */
export function renderDiffJunit(d: ReportDiff): string {
  const cases = [
    ...d.checks.map((c) => ({ cls: 'agent-readiness.diff.checks', name: c.id, failed: regressedCheck(c), text: `${checkState(c.before)} → ${checkState(c.after)}` })),
    ...d.cells.map((c) => ({ cls: 'agent-readiness.diff.agents', name: `${c.agent} ${c.network ?? 'robots.txt'}`, failed: regressedCell(c), text: cellLine(c) })),
  ];
  const failures = cases.filter((c) => c.failed).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-readiness diff" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
    `  <testsuite name="${xml(`agent-readiness diff ${d.domain}`)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" timestamp="${xml(d.to.scannedAt)}">`,
    '    <properties>',
    `      <property name="from" value="${xml(d.from.reportUrl)}"/>`,
    `      <property name="to" value="${xml(d.to.reportUrl)}"/>`,
    `      <property name="headline" value="${xml(`${d.headline.before} → ${d.headline.after}`)}"/>`,
    `      <property name="scoreDelta" value="${d.score.delta ?? ''}"/>`,
    `      <property name="robotsTxtChanged" value="${d.robotsTxt.changed ?? ''}"/>`,
    '    </properties>',
  ];
  for (const c of cases) {
    if (!c.failed) out.push(`    <testcase classname="${c.cls}" name="${xml(c.name)}"><system-out>${xml(c.text)}</system-out></testcase>`);
    else out.push(`    <testcase classname="${c.cls}" name="${xml(c.name)}">`, `      <failure message="${xml(c.text)}">${xml(c.text)}</failure>`, '    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}

export async function runDiff(o: DiffOptions, io: DiffIo): Promise<number> {
  const api = connectApi(o.api, io.env, io.version);
  try {
    const answer = await api.diff(o.before, o.after);
    if (!answer.ok) {
      if (o.format === 'json') io.stdout.write(`${JSON.stringify({ cli: io.version, diff: null, error: answer.message, exitCode: EXIT_COULD_NOT_TEST }, null, 2)}\n`);
      io.stderr.write(`agent-readiness: could not compare: ${answer.message}\n`);
      return EXIT_COULD_NOT_TEST;
    }
    const d = answer.diff;
    const text = o.format === 'json' ? `${JSON.stringify({ cli: io.version, diff: d, exitCode: 0 }, null, 2)}\n`
      : o.format === 'markdown' ? renderDiffMarkdown(d)
        : o.format === 'junit' ? renderDiffJunit(d)
          : renderDiffText(d);
    io.stdout.write(text);
    return 0;
  } finally {
    await api.close();
  }
}
