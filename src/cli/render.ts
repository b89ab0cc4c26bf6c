/**
 * The report as a person reads it in a terminal or a CI log: headline and
 * reasons, score and categories, failing checks with their fix, the matrix
 * with the caller's network beside the cloud networks, what differed, the
 * gate, and the report link last.
 */
import type { ScanReport } from './api.ts';
import { fixLines, servedBy } from './platform-fixes.ts';
import { revisedFindings } from './preview-findings.ts';
import { domainInText } from '../report/domain-name.ts';
import type { ChecksGate } from './check-gates.ts';
import type { GateResult } from './gate.ts';
import { describeDifferences, hostedColumns, localColumns, renderMatrix } from './matrix-view.ts';
import { refusalLines } from './refusals-view.ts';
import type { Style } from './style.ts';
import type { UploadResult, UserVantage } from './vantage.ts';

export interface HumanView {
  /** preview: an authenticated preview, run on this machine with --header (preview.ts). */
  mode: 'hosted' | 'local' | 'preview';
  report: ScanReport;
  fixes: Map<string, string>;
  vantage: UserVantage | null;
  /** Why the caller's network could not be probed, when it could not. */
  vantageProblem: string | null;
  upload: UploadResult | null;
  gate: GateResult;
  /** The per-check gates (--assert, --baseline), when any was asked for. */
  checks?: ChecksGate;
  /** Local mode: the origin that was scanned. */
  localOrigin?: string;
  /** Run notices (an authenticated preview, a preview deployment), shown under the first line. */
  notices?: string[];
}

function headlineColour(h: string, s: Style): string {
  if (h === 'open') return s.green(h);
  if (h === 'partially-blocked') return s.yellow(h);
  if (h === 'agent-hostile') return s.red(h);
  if (h === 'contradictory') return s.magenta(h);
  return s.dim(h);
}

export function renderHuman(v: HumanView, s: Style): string {
  const r = v.report;
  const out: string[] = [];
  const where = v.mode === 'local' ? `${v.localOrigin} (local scan)` : v.mode === 'preview' ? `${domainInText(r.domain)} (from this machine)` : domainInText(r.domain);
  out.push(`${s.bold('agent-readiness')} · ${where} · scanned ${r.scannedAt}`);
  for (const n of v.notices ?? []) out.push(`${s.yellow('Note:')} ${n}`);
  if (r.coalesced) out.push(s.dim(`Shared result of an identical scan that finished ${Math.round((r.ageMs ?? 0) / 1000)} s ago (use --fresh for a new one).`));
  if (r.ephemeral && r.ephemeralNote) out.push(s.dim(r.ephemeralNote));
  out.push('');

  out.push(`${s.bold('Headline:')} ${headlineColour(r.headline, s)}  (confidence ${r.confidence})`);
  for (const reason of r.reasons) out.push(`  - ${reason}`);
  out.push(`  ${s.dim(r.confidenceNote)}`);
  out.push('');

  const score = r.score.value === null
    ? `no score, not enough signal (${r.score.decidedCount} checks decided, at least ${r.score.minDecided} needed)`
    : `${r.score.value}/100`;
  out.push(`${s.bold('Score:')} ${score}  ${s.dim(`${r.score.rubricVersion}, profile ${r.profile ?? 'none'}`)}`);
  const cats = Object.entries(r.score.categories).map(([name, value]) => `${name} ${value === null ? '—' : value}`);
  if (cats.length) out.push(`  ${cats.join(' · ')}`);
  const served = servedBy(r);
  if (served) out.push(`  ${s.dim(served)}`);
  if (r.preview) out.push(`${s.bold('Next rubric:')} ${r.preview.score.value === null ? 'not enough signal' : `${r.preview.score.value}/100`}  ${s.dim(`${r.preview.rubricVersion}, a preview; the score above is unchanged`)}`);
  for (const f of revisedFindings(r)) out.push(`  ${s.yellow('!')} ${f.id} ${s.dim('(judged anew by the next rubric)')} — ${f.detail}`);
  out.push('');

  const failing = r.checks.filter((c) => c.status === 'fail');
  // "none" only when something was decided: a scan that measured nothing has no known failure either.
  const decided = r.checks.some((c) => c.status === 'pass' || c.status === 'fail');
  out.push(s.bold(failing.length ? `Failing checks (${failing.length}):` : decided ? 'Failing checks: none' : 'Failing checks: none known, no check could be decided'));
  for (const c of failing) {
    out.push(`  ${s.red('✗')} ${c.id} ${s.dim(`(${c.category}, weight ${c.weight})`)}${c.detail ? ` — ${c.detail}` : ''}`);
    for (const line of fixLines(r, c.id, v.fixes.get(c.id))) out.push(`    ${line}`);
  }
  out.push('');

  const patch = r.robotsPatch;
  if (patch) {
    out.push(s.bold('robots.txt that says what the site does:'), `  ${patch.reason}`);
    for (const line of patch.unifiedDiff.replace(/\n$/, '').split('\n')) out.push(`    ${line.startsWith('+') && !line.startsWith('+++') ? s.green(line) : line.startsWith('-') && !line.startsWith('---') ? s.red(line) : line}`);
    out.push(`  ${patch.edgeAlternative.text}${patch.edgeAlternative.docUrl ? ` (${patch.edgeAlternative.docUrl})` : ''}`, '');
  }

  // What the owner asked for (--intent), before the grid as on the report page; never the score.
  const intent = r.intent;
  if (intent?.roles.length) {
    out.push(s.bold(`What you asked for: ${intent.asIntended.met} of ${intent.asIntended.decided} decided roles as asked`));
    for (const role of intent.roles) {
      const mark = role.asIntended === null ? s.yellow('not decided') : role.asIntended ? s.green('as asked') : s.red('not as asked');
      out.push(`  ${role.role}: ${role.wanted} — robots.txt ${role.robotsSays}, edge ${role.edgeDoes}: ${mark}`);
      if (role.fix) out.push(`    ${role.fix.text}${role.fix.docUrl ? ` (${role.fix.docUrl})` : ''}`, ...(role.fix.robotsTxt ? role.fix.robotsTxt.split('\n').map((l) => `      ${l}`) : []));
    }
    out.push('');
  }

  const user = v.vantage?.outcomes ?? null;
  out.push(s.bold('Agents:'));
  out.push(...renderMatrix(r.matrix, v.mode === 'hosted' ? hostedColumns(user) : localColumns(), s));
  const refusals = refusalLines(r.matrix);
  if (refusals.length) out.push(s.bold('Who refused, and prices:'), ...refusals.map((l) => `  ${l}`));
  out.push('');

  if (v.mode === 'hosted') {
    out.push(s.bold(`Your network${v.vantage ? ` (${v.vantage.via})` : ''}:`));
    const controlError = v.vantage?.observations.find((o) => o.key === 'control:browser')?.error;
    if (user) for (const line of describeDifferences(r.matrix, user, controlError, v.vantage?.controlProblem)) out.push(`  ${line}`);
    else out.push(`  not probed: ${v.vantageProblem ?? 'unknown reason'}`);
    if (v.upload?.status === 'attached') out.push(`  Attached to the report as a self-reported vantage (${v.upload.attached} observations); it never changes the verdict or the score.`);
    else if (v.upload?.status === 'not-uploaded') out.push(`  Not uploaded: ${v.upload.reason}.`);
    else if (v.upload?.status === 'failed') out.push(`  ${s.yellow('Warning:')} upload failed: ${v.upload.reason}`);
    out.push('');
  }

  if (v.gate.result !== 'absent') {
    const label = v.gate.result === 'passed' ? s.green('passed') : v.gate.result === 'failed' ? s.red('failed') : s.yellow('could not judge');
    out.push(`${s.bold('Gate:')} ${label}: ${v.gate.message}`);
    out.push('');
  }

  if (v.checks && (v.checks.assertions.length || v.checks.baseline || v.checks.refusals.length)) {
    out.push(s.bold('Check gates:'));
    for (const a of v.checks.assertions) {
      const mark = a.undecided ? (a.level === 'error' ? s.yellow('could not test') : s.yellow('warning, not decided'))
        : !a.failed ? s.green('ok') : a.level === 'error' ? s.red('failed') : s.yellow('warning');
      out.push(`  assert ${a.id} (${a.level}): ${a.status} ${mark}`);
    }
    const b = v.checks.baseline;
    if (b?.rubricChanged) {
      out.push(`  baseline ${b.file}: ${s.yellow('rubric changed')} (written under ${b.rubricChanged.baseline}, scored with ${b.rubricChanged.scan}): nothing compared; refresh it with --write-baseline`);
    } else if (b) {
      out.push(`  baseline ${b.file}: ${b.regressions.length} regression(s), ${b.improvements.length} improvement(s)${b.undecided.length ? `, ${b.undecided.length} not decided` : ''}`);
      for (const id of b.regressions) out.push(`    ${s.red('regression:')} ${id} passed, now fails`);
      for (const id of b.improvements) out.push(`    ${s.green('improvement:')} ${id} failed, now passes`);
      for (const u of b.undecided) out.push(`    ${s.yellow('could not test:')} ${u.id} was decided in the baseline, not now (${u.why})`);
    }
    for (const r of v.checks.refusals) out.push(`  ${s.yellow('could not test:')} ${r}`);
    out.push('');
  }

  if (v.mode === 'local') out.push(`Local scan: nothing was uploaded and no hosted service was contacted; there is no permalink.`);
  else if (v.mode === 'preview') out.push('Authenticated preview: scanned from this machine; nothing was uploaded and no hosted service was contacted; there is no permalink.');
  else if (r.reportUrl) out.push(`${s.bold('Report:')} ${r.reportUrl}`);
  else out.push(`${s.bold('Report:')} no permalink (${r.ephemeral ? 'temporary tunnel hosts are never archived' : 'the report was not archived'}).`);
  return `${out.join('\n')}\n`;
}
