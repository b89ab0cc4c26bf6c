// The preview rubric beside the current score, as SSL Labs shows a future grade: its score, and
// each check it adds with the generation of the standard the site matched. Never the verdict.
import type { RubricPreview } from '../scanner/types.ts';
import { html, type SafeHtml } from './html.ts';
import type { CatalogLookup } from './sections.ts';
import { checkWord } from './words.ts';

export function nextRubricLine(p: RubricPreview | undefined): SafeHtml | string {
  if (!p) return '';
  return html`<p class="small">Next rubric: <strong>${p.score.value === null ? 'not enough signal' : `${p.score.value}/100`}</strong> <span class="muted">(${p.rubricVersion}, a preview that may still change; <a href="#next-rubric">what it adds</a>)</span></p>`;
}

/** What a revised check's new definition judges differently, from its change note ("name: what"), or ''. */
function anew(change: RubricPreview['changes'][number], name: string | undefined): string {
  const prefix = `${name ?? ''}: `;
  return change.change === 'revised' && name && change.note.startsWith(prefix) ? change.note.slice(prefix.length) : '';
}

/** What the preview changes, counted from its own change list (an archived report's preview keeps its own). */
function changeWords(p: RubricPreview): string {
  const n = (kind: string) => p.changes.filter((c) => c.change === kind).length;
  const parts = [
    n('revised') ? `judges ${n('revised')} anew` : '',
    n('added') ? `adds ${n('added')}` : '',
    n('reweighted') ? `reweighs ${n('reweighted')}` : '',
    n('removed') ? `removes ${n('removed')}` : '',
  ].filter(Boolean);
  return parts.length ? `${parts.join(', ')} (listed below)` : 'changes nothing yet';
}

/** `scoredWith`: the rubric of the score above (the report's own; a preview is always against the rubric current when it was made). */
export function nextRubricSection(p: RubricPreview | undefined, catalog: CatalogLookup, scoredWith?: string): SafeHtml | string {
  if (!p) return '';
  const byId = new Map(p.checks.map((c) => [c.id, c]));
  const rows = p.changes.map((change) => {
    const c = byId.get(change.checkId);
    const meta = catalog(change.checkId);
    const weight = change.change === 'reweighted' ? `weight ${change.weightBefore} → ${change.weightAfter}` : change.change === 'added' ? `new, weight ${change.weightAfter}`
      : change.change === 'revised' ? `judged anew, weight ${change.weightAfter}` : 'removed';
    return html`<tr>
<td class="wrap"><strong>${meta?.name ?? change.note}</strong><br><code class="muted">${change.checkId}</code> <span class="muted small">· ${weight}</span></td>
<td>${c ? checkWord(c.status) : '—'}${c?.generation ? html`<br><span class="small muted">matched: ${c.generation}</span>` : ''}</td>
<td class="wrap">${anew(change, meta?.name) ? html`<p class="small muted">Judged anew: ${anew(change, meta?.name)}</p>` : ''}${c?.detail ? html`<p>${c.detail}</p>` : ''}${meta ? html`<details><summary>Why it matters and how to fix it</summary><p><strong>Why:</strong> ${meta.why}</p><p><strong>Fix:</strong> ${meta.fix}</p></details>` : ''}</td>
</tr>`;
  });
  return html`<h2 id="next-rubric">Next rubric</h2>
<p>Under <strong>${p.rubricVersion}</strong> this site would score <strong>${p.score.value === null ? 'not enough signal' : `${p.score.value}/100`}</strong>. The score above stays on ${scoredWith ?? 'the current rubric'}; against the rubric current when this report was made, the preview ${changeWords(p)}. New checks count an optional file that is absent as not applicable.</p>
<details><summary>${p.changes.length} changes against the current rubric</summary>
<div class="scroll" role="region" aria-label="Checks the next rubric adds" tabindex="0"><table>
<thead><tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>
<p class="muted small">The list of its checks: <a href="/api/checks?rubric=${p.rubricVersion}">/api/checks?rubric=${p.rubricVersion}</a>.</p>`;
}
