// The results behind a capability link (links.resultsPage), as a table for people: one page of
// rows at a time (a batch may hold 10,000 sites), each linking its report, with the whole
// results as CSV and NDJSON downloads. Nothing runs on the page; every value is escaped.
import { html, SafeHtml } from '../report/html.ts';
import { STYLE } from '../report/styles.ts';
import type { resultRow } from './views.ts';

export const ROWS_PER_PAGE = 100;

type Row = ReturnType<typeof resultRow>;

export interface ResultsPageInput {
  label: string | null;
  status: string;
  total: number;
  page: number;
  pages: number;
  rows: readonly Row[];
  /** Path of this table without query (the capability link); the downloads and pager add theirs. */
  self: string;
  /** The capability link's summary page. */
  summary: string;
}

export function resultsPage(p: ResultsPageInput): string {
  const title = `Batch results${p.label ? `: ${p.label}` : ''}`;
  const first = (p.page - 1) * ROWS_PER_PAGE + 1;
  const last = first + p.rows.length - 1;
  const pager = (where: string) => html`<nav aria-label="Pages of results (${where})"><p>${p.page > 1 ? html`<a href="${p.self}?page=${p.page - 1}" rel="prev">Previous page</a> · ` : html``}Page ${p.page} of ${p.pages}${p.page < p.pages ? html` · <a href="${p.self}?page=${p.page + 1}" rel="next">Next page</a>` : html``}</p></nav>`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">
<title>${title} · agent-readiness</title><style>${new SafeHtml(STYLE)}</style></head>
<body><main><h1>${title}</h1>
<p>Sites ${p.rows.length ? `${first} to ${last}` : 'none'} of ${p.total} (batch ${p.status}). <a href="${p.summary}">Summary</a> · download all rows as <a href="${p.self}?format=csv">CSV</a> or <a href="${p.self}?format=ndjson">NDJSON</a></p>
${pager('top')}
<div class="scroll" role="region" aria-label="Results" tabindex="0"><table><thead><tr><th scope="col">Site</th><th scope="col">State</th><th scope="col">Headline</th><th scope="col">Score</th><th scope="col">Confidence</th><th scope="col">Report</th></tr></thead>
<tbody>${p.rows.map((r) => html`<tr><td>${r.domain}</td><td>${r.state}${r.error ? html`: ${r.error}` : html``}</td><td>${r.headline ?? ''}</td><td>${r.score ?? ''}</td><td>${r.confidence ?? ''}</td><td>${r.reportUrl ? html`<a href="${r.reportUrl}">report</a>` : html``}</td></tr>`)}</tbody></table></div>
${pager('bottom')}
</main></body></html>`.value;
}
