// The archived report as a server-rendered page: no script, one hashed stylesheet, every value
// escaped by the `html` tag. Also the helpful 404 page.
import type { EvidenceRecord } from '../scanner/types.ts';
import type { CliVantage, ScanReportBody } from '../scans/types.ts';
import { html, SafeHtml } from './html.ts';
import { checksSection, evidenceSection, matrixSection, type CatalogLookup } from './sections.ts';
import { STYLE } from './styles.ts';

const HEADLINE_WORDS: Record<string, string> = {
  open: 'Open to agents',
  'partially-blocked': 'Partially blocked',
  'agent-hostile': 'Agent-hostile edge',
  contradictory: 'Contradictory signals',
  unknown: 'Unknown (could not measure)',
};

function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">
<title>${title}</title><style>${new SafeHtml(STYLE)}</style></head>
<body><main>${body}</main></body></html>`.value;
}

export interface ReportPageInput {
  report: ScanReportBody;
  evidence: readonly EvidenceRecord[];
  cliVantage: CliVantage | null;
  catalog: CatalogLookup;
}

function scoreBlock(r: ScanReportBody): SafeHtml {
  const cats = Object.entries(r.score.categories).map(([name, v]) => html`<div class="card"><div class="muted">${name}</div><strong>${v === null ? 'not enough signal' : v}</strong></div>`);
  return html`<h2 id="score">Score</h2>
<p><span class="score">${r.score.value === null ? '—' : r.score.value}</span> <span class="muted">/ 100 ${r.score.value === null ? '(not enough signal)' : ''}</span></p>
<p class="muted">${r.score.decidedCount} decided checks (at least ${r.score.minDecided} needed for a score), ${r.score.rubricVersion}${r.profile ? html`, profile ${r.profile}` : ''}.</p>
<div class="grid">${cats}</div>`;
}

export function renderReportPage(p: ReportPageInput): string {
  const r = p.report;
  const body = html`<header>
<p class="muted">Agent-readiness report · point-in-time measurement</p>
<h1>${r.domain}</h1>
<p><span class="chip h-${r.headline}">${HEADLINE_WORDS[r.headline] ?? r.headline}</span></p>
<p class="muted">Scanned <time datetime="${r.scannedAt}">${r.scannedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time> · confidence <strong>${r.confidence}</strong>${r.vantagesConfirmed ? ' · both vantages confirmed' : ''}</p>
</header>
<section aria-labelledby="why"><h2 id="why">Why this headline</h2>
<ul>${r.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>
<p><strong>Confidence:</strong> ${r.confidenceNote}</p></section>
<section aria-labelledby="score">${scoreBlock(r)}</section>
<section aria-labelledby="checks">${checksSection(r.checks, p.catalog)}</section>
<section aria-labelledby="matrix">${matrixSection(r.matrix, p.cliVantage)}</section>
<section aria-labelledby="evidence">${evidenceSection(r.evidenceRefs, p.evidence)}</section>
<section aria-labelledby="method"><h2 id="method">How this was measured</h2>
<p>${r.probeMethod}</p>
<p class="muted">This report never claims that a vendor's verified bot is blocked: it reports what the edge did with requests identifying as that agent from cloud networks. See the <a href="/methodology.md">methodology</a>.</p>
<p class="muted">Versions: schema ${r.versions.schema}, ${r.versions.rubric}, ${r.versions.roster}, ${r.versions.fingerprints}. Report id <code>${r.scanId}</code>.</p></section>`;
  return layout(`${r.domain}: ${HEADLINE_WORDS[r.headline] ?? r.headline} · agent-readiness report`, body);
}

export function renderNotFoundPage(scanId: string): string {
  return layout('Report not found · agent-readiness', html`<h1>No report with this id</h1>
<p>There is no archived report at <code>/r/${scanId}</code>.</p>
<ul>
<li>Check that the link was copied completely: report ids are long and easy to cut short.</li>
<li>Scans of temporary tunnel hosts (ngrok, trycloudflare, …) are never archived and have no link.</li>
<li>A scan whose archive write failed returned its report only in the response, without a link.</li>
</ul>
<p>You can run a new scan with <code>POST /scan</code>; see <a href="/openapi.json">the API description</a> and the <a href="/methodology.md">methodology</a>.</p>`);
}
