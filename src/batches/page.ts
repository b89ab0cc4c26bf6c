// The summary as a page for people: the report page's stylesheet, two bar charts as inline
// SVG (each an img with a title and description, and the same figures in a table beside it for
// screen readers and copying), and nothing that runs.
import { html, SafeHtml } from '../report/html.ts';
import { STYLE } from '../report/styles.ts';
import type { summaryBody } from './views.ts';

type Body = ReturnType<typeof summaryBody>;

const HEADLINE_COLOUR: Record<string, string> = { open: '#116329', 'partially-blocked': '#7d4e00', 'agent-hostile': '#a40e26', contradictory: '#8250df', unknown: '#57606a' };

/** Horizontal bars, one per row, scaled to the largest value (or to 1 for shares). */
function bars(id: string, title: string, rows: Array<{ label: string; value: number; text: string; colour: string }>, max: number): SafeHtml {
  const rowH = 26;
  const labelW = 170;
  const barW = 360;
  const h = rows.length * rowH + 8;
  return html`<svg role="img" aria-labelledby="${id}-t ${id}-d" viewBox="0 0 ${labelW + barW + 90} ${h}" class="chart">
<title id="${id}-t">${title}</title><desc id="${id}-d">${rows.map((r) => `${r.label}: ${r.text}`).join('; ')}</desc>
${rows.map((r, i) => html`<text x="${labelW - 8}" y="${i * rowH + 18}" text-anchor="end" font-size="13" fill="#1b1f24">${r.label}</text>
<rect x="${labelW}" y="${i * rowH + 5}" width="${max > 0 ? Math.max(1, (r.value / max) * barW) : 1}" height="${rowH - 10}" fill="${r.colour}"></rect>
<text x="${labelW + (max > 0 ? (r.value / max) * barW : 0) + 6}" y="${i * rowH + 18}" font-size="13" fill="#1b1f24">${r.text}</text>`)}
</svg>`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** A table that may be wider than a phone scrolls inside its own focusable region, not the page (as on the report page). */
const scroll = (label: string, table: SafeHtml) => html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;

/** Where a capability link's summary page points: its results table and the downloads (all under the same token). */
export interface SharedNav { results: string; csv: string; ndjson: string }

export function summaryPage(b: Body, label: string | null, nav?: SharedNav, grid?: SafeHtml): string {
  const headlines = Object.entries(b.headlines);
  const maxHeadline = Math.max(0, ...headlines.map(([, n]) => n));
  const title = `Batch summary${label ? `: ${label}` : ''}`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">
<title>${title} · agent-readiness</title><style>${new SafeHtml(STYLE)}</style></head>
<body><main><h1>${title}</h1>
<p>${b.finished} of ${b.total} sites scanned (batch ${b.status}). Shares are of the scanned sites that have each agent in their report.</p>
${nav ? html`<p><a href="${nav.results}">Every site's result</a> · download all rows as <a href="${nav.csv}">CSV</a> or <a href="${nav.ndjson}">NDJSON</a></p>` : html``}
<h2 id="headlines">Headlines</h2>
${headlines.length ? bars('hl', 'Sites by headline', headlines.map(([h, n]) => ({ label: h, value: n, text: String(n), colour: HEADLINE_COLOUR[h] ?? '#57606a' })), maxHeadline) : html`<p>No site scanned yet.</p>`}
${scroll('Sites by headline', html`<table><thead><tr><th scope="col">Headline</th><th scope="col">Sites</th></tr></thead><tbody>${headlines.map(([h, n]) => html`<tr><td>${h}</td><td>${n}</td></tr>`)}</tbody></table>`)}
<h2 id="score">Score</h2>
${b.score ? html`<p>Over ${b.score.scored} scored sites: mean ${b.score.mean}, median ${b.score.median}, 10th percentile ${b.score.p10}, 90th percentile ${b.score.p90}.</p>` : html`<p>No site has a score yet.</p>`}
<h2 id="agents">Agents</h2>
${b.agents.length ? bars('ag', 'Share of sites whose edge denies each agent on both networks', b.agents.map((a) => ({ label: a.ua, value: a.edgeDeniesShare, text: pct(a.edgeDeniesShare), colour: '#a40e26' })), 1) : html``}
${scroll('Agents: robots.txt and edge', html`<table><thead><tr><th scope="col">Agent</th><th scope="col">Sites</th><th scope="col">robots.txt blocks</th><th scope="col">Edge denies (both networks)</th><th scope="col">Allowed by robots.txt, denied by the edge</th></tr></thead>
<tbody>${b.agents.map((a) => html`<tr><td>${a.ua}</td><td>${a.sites}</td><td>${a.robotsBlocks} (${pct(a.robotsBlocksShare)})</td><td>${a.edgeDenies} (${pct(a.edgeDeniesShare)})</td><td>${a.allowedButDenied} (${pct(a.allowedButDeniedShare)})</td></tr>`)}</tbody></table>`)}
${b.prices ? html`<h2 id="prices">Who is charged</h2>
<p>${b.prices.sentence}</p>
${scroll('Who is charged', html`<table><thead><tr><th scope="col">Agent</th><th scope="col">Charged on</th><th scope="col">Prices</th><th scope="col">Free on charging sites</th></tr></thead><tbody>${b.prices.agents.map((a) => html`<tr><td>${a.ua}</td><td>${a.charged}</td><td>${a.prices.map((p) => `${p.price} (${p.sites})`).join(', ')}</td><td>${a.servedFreeByChargingSites}</td></tr>`)}</tbody></table>`)}` : ''}
${grid ?? html``}
<h2 id="vendors">Denials by attributed vendor</h2>
${b.vendors.length ? scroll('Denials by attributed vendor', html`<table><thead><tr><th scope="col">Vendor</th><th scope="col">Denials</th><th scope="col">Sites</th></tr></thead><tbody>${b.vendors.map((v) => html`<tr><td>${v.vendor}</td><td>${v.denials}</td><td>${v.sites}</td></tr>`)}</tbody></table>`) : html`<p>No denial was attributed to a vendor.</p>`}
</main></body></html>`.value;
}
