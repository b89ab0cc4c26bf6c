// "Fix first": the checks that cost points, ordered by the points each would add if it passed,
// computed with the rubric's own formula (src/scanner/scoring.ts) over the report's checks, so
// the figures always agree with the score the report shows.
import { weightedPercent, type ScoredCheck } from '../scanner/scoring.ts';
import type { CheckResult } from '../scanner/types.ts';
import { html, type SafeHtml } from './html.ts';
import type { ScanReportBody } from '../scans/types.ts';
import { fixHtml, fixesFor, platformsLine } from './platform-fix.ts';
import type { CatalogLookup } from './sections.ts';

export interface Fix { check: CheckResult; gain: number }

function thousandths(c: CheckResult): number {
  if (c.status !== 'pass' && c.status !== 'fail') return 0;
  if (c.credit !== undefined) return Math.round(c.credit * 1000);
  return c.status === 'pass' ? 1000 : 0;
}

/** Failing checks and partly credited passes, most points first (then weight, then id). */
export function fixesByGain(checks: readonly CheckResult[]): Fix[] {
  const scored: ScoredCheck[] = checks.map((c) => ({ result: c, thousandths: thousandths(c) }));
  const now = weightedPercent(scored) ?? 0;
  const fixes: Fix[] = [];
  scored.forEach((s, i) => {
    const c = s.result;
    const decided = c.status === 'pass' || c.status === 'fail';
    if (!decided || c.weight <= 0 || s.thousandths >= 1000) return;
    const fixed = scored.map((o, j) => (j === i ? { result: { ...o.result, status: 'pass' as const }, thousandths: 1000 } : o));
    fixes.push({ check: c, gain: (weightedPercent(fixed) ?? 0) - now });
  });
  return fixes.sort((a, b) => b.gain - a.gain || b.check.weight - a.check.weight || (a.check.id < b.check.id ? -1 : a.check.id > b.check.id ? 1 : 0));
}

export function fixFirstSection(report: ScanReportBody, catalog: CatalogLookup): SafeHtml {
  const checks = report.checks;
  const fixes = fixesByGain(checks);
  if (fixes.length === 0) {
    // With no check decided, "nothing to fix" would claim what the scan could not measure.
    const anyDecided = checks.some((c) => c.status === 'pass' || c.status === 'fail');
    return anyDecided
      ? html`<h2 id="fix">Fix first</h2><p>Nothing to fix: every check that decided passed with full credit.</p>`
      : html`<h2 id="fix">Fix first</h2><p>No fix to suggest: no check could be decided in this scan, so nothing is known to pass or fail. The reasons above say what could not be measured.</p>`;
  }
  const items = fixes.map(({ check: c, gain }) => {
    const meta = catalog(c.id);
    const partial = c.status === 'pass' && c.credit !== undefined ? html` <span class="muted">(passes with ${Math.round(c.credit * 100)}% credit)</span>` : '';
    return html`<li><span class="gain">${gain > 0 ? `+${gain}` : '<1'}<small>point${gain === 1 ? '' : 's'}</small></span>
<span><strong>${meta?.name ?? c.id}</strong>${partial}</span>
<span class="small muted"><code>${c.id}</code> · ${c.category} · weight ${c.weight}${c.detail ? html` · ${c.detail}` : ''}</span>
${fixHtml(fixesFor(report, c.id), meta?.fix)}</li>`;
  });
  return html`<h2 id="fix">Fix first</h2>
<p class="muted small">Each fix with the points the score would gain if that check alone passed, largest first.</p>
${platformsLine(report)}
<ol class="fixes">${items}</ol>`;
}
