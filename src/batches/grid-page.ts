// The batch summary's portfolio grid: sites by agents, each cell the site's matrix verdict for
// that agent (the report page's words and icons), rows with the most agents denied first, each
// row linking its report. Paged on the server, GRID_PAGE rows at a time, so a 5,000-site batch
// is never 5,000 × 27 cells in one page: the page costs the same whatever the batch's size.
import { html, type SafeHtml } from '../report/html.ts';
import { verdictWord } from '../report/words.ts';
import type { GridRow } from '../storage/queries/batchGrid.ts';
import type { ItemFacts } from './summary.ts';

export const GRID_PAGE = 100;

export interface GridInput {
  /** The agents of the summary, in its order: the grid's columns. */
  agents: readonly string[];
  rows: readonly GridRow[];
  /** 1-based. */
  page: number;
  /** Done sites in the batch. */
  total: number;
  /** The summary page's own path with `?page=n` (and no other query). */
  href: (page: number) => string;
}

function cells(agents: readonly string[], facts: ItemFacts | null): SafeHtml[] {
  return agents.map((ua) => {
    const v = facts?.m?.[ua];
    if (v) return html`<td>${verdictWord(v)}</td>`;
    // Facts stored before verdicts were kept (or an agent the site's report did not have).
    return html`<td class="muted">${facts && !facts.m && ua in facts.a ? 'not recorded' : '—'}</td>`;
  });
}

function parse(facts: string | null): ItemFacts | null {
  if (!facts) return null;
  try {
    return JSON.parse(facts) as ItemFacts;
  } catch {
    return null;
  }
}

export function portfolioGrid(g: GridInput): SafeHtml {
  const pages = Math.max(1, Math.ceil(g.total / GRID_PAGE));
  const first = (g.page - 1) * GRID_PAGE;
  const pager = (where: string) => html`<nav aria-label="Portfolio grid pages, ${where}"><ul>
${g.page > 1 ? html`<li><a href="${g.href(g.page - 1)}#grid" rel="prev">Previous ${GRID_PAGE} sites</a></li>` : html``}
<li>Page ${g.page} of ${pages}</li>
${g.page < pages ? html`<li><a href="${g.href(g.page + 1)}#grid" rel="next">Next ${GRID_PAGE} sites</a></li>` : html``}
</ul></nav>`;
  if (g.total === 0) return html`<h2 id="grid">Portfolio grid</h2><p>No site scanned yet.</p>`;
  if (g.rows.length === 0) return html`<h2 id="grid">Portfolio grid</h2><p>This page is past the last site (${g.total} scanned).</p>${pager('after')}`;
  return html`<h2 id="grid">Portfolio grid</h2>
<p>Each scanned site's verdict per agent, the sites with the most agents denied first. Sites ${first + 1} to ${first + g.rows.length} of ${g.total}; each site links its report.</p>
${pager('above the grid')}
<div class="scroll" role="region" aria-label="Portfolio grid: sites by agents" tabindex="0"><table class="grid"><thead><tr><th scope="col">Site (agents denied)</th>${g.agents.map((ua) => html`<th scope="col">${ua}</th>`)}</tr></thead>
<tbody>${g.rows.map((r) => {
    const site = r.scan_id && r.report_archived ? html`<a href="/r/${r.scan_id}">${r.domain}</a>` : html`${r.domain}`;
    return html`<tr><th scope="row">${site} <span class="muted">(${r.denied ?? '?'})</span></th>${cells(g.agents, parse(r.facts))}</tr>`;
  })}</tbody></table></div>
${pager('below the grid')}`;
}
