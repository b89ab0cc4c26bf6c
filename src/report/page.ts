// The archived report as a server-rendered page: no script, one stylesheet (a file, pinned by its hash), every value
// escaped by the `html` tag. The order answers a site owner's questions in turn: what is the
// verdict and why, what is the score, what to fix first, what each agent meets, the evidence,
// how to share it, how it changed. Also the pages for a missing report, a report link cut
// short and an address nothing serves. Same input, same bytes.
import type { EvidenceRecord } from '../scanner/types.ts';
import type { CliVantage, ScanReportBody } from '../scans/types.ts';
import { displayDomain } from './domain-name.ts';
import { fixFirstSection } from './fix-first.ts';
import { watchFormSection, type WatchFormOptions } from './watch-form.ts';
import { html, SafeHtml } from './html.ts';
import { matrixSection } from './matrix.ts';
import { robotsPatchSection } from './platform-fix.ts';
import { robotsTxtSection } from './robots-copies.ts';
import { intentSection } from './intent.ts';
import { nextRubricLine, nextRubricSection } from './next-rubric.ts';
import { checksSection, evidenceSection, type CatalogLookup } from './sections.ts';
import { historySection, shareSection, type HistoryPoint } from './share.ts';
import { STYLESHEET_LINK } from './styles.ts';
import { HEADLINE_ICON, HEADLINE_WORDS } from './words.ts';

export function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">
<title>${title}</title>${new SafeHtml(STYLESHEET_LINK)}</head>
<body><main>${body}</main></body></html>`.value;
}

export interface ReportPageInput {
  /** The "Watch this site" form: archived reports of domains not excluded (getReport decides). */
  watchForm?: WatchFormOptions;
  report: ScanReportBody;
  evidence: readonly EvidenceRecord[];
  cliVantage: CliVantage | null;
  catalog: CatalogLookup;
  /** This domain's earlier archived scans, oldest first; absent when the scan was not archived. */
  history?: readonly HistoryPoint[];
}

const TONE: Record<string, string> = { open: 'ok', 'partially-blocked': 'warn', contradictory: 'warn', 'agent-hostile': 'bad', unknown: 'none' };

export const utc = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

function bar(v: number): SafeHtml {
  return html`<svg class="bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true"><rect class="track" width="100" height="6" rx="3"/><rect class="fill" width="${v}" height="6" rx="3"/></svg>`;
}

function scoreBlock(r: ScanReportBody): SafeHtml {
  const cats = Object.entries(r.score.categories).map(([name, v]) => html`<li>${name} <strong>${v === null ? 'n/a' : v}</strong>${v === null ? html`<span class="small muted">not enough signal</span>` : bar(v)}</li>`);
  return html`<h2 id="score">Score</h2>
<p><span class="score">${r.score.value === null ? '—' : r.score.value}</span> <span class="muted">/ 100${r.score.value === null ? ' (not enough signal)' : ''}</span></p>
<ul class="cats" aria-label="Score by category">${cats}</ul>
<p class="muted small">${r.score.decidedCount} decided checks (at least ${r.score.minDecided} needed for a score), ${r.score.rubricVersion}${r.profile ? html`, profile ${r.profile}` : ''}.</p>
${nextRubricLine(r.preview)}`;
}

export function renderReportPage(p: ReportPageInput): string {
  const r = p.report;
  const words = HEADLINE_WORDS[r.headline] ?? r.headline;
  const shown = displayDomain(r.domain);
  const copies = robotsTxtSection(r);
  const asked = intentSection(r);
  const body = html`<header>
<p class="muted small">Agent-readiness report · a point-in-time measurement</p>
<h1>${shown.name}</h1>${shown.ascii ? html`<p class="muted small">As DNS spells it: <code>${shown.ascii}</code></p>` : ''}
<p><span class="chip ${TONE[r.headline] ?? 'none'}"><span class="i" aria-hidden="true">${HEADLINE_ICON[r.headline] ?? '?'}</span>${words}</span>
<span class="muted small">Scanned <time datetime="${r.scannedAt}">${utc(r.scannedAt)}</time> · confidence <strong>${r.confidence}</strong>${r.vantagesConfirmed ? ' · both networks confirmed' : ''}</span></p>
<nav aria-label="Sections"><ul><li><a href="#fix">Fix first</a></li><li><a href="#agents">Agents</a></li><li><a href="#checks">All checks</a></li><li><a href="#evidence">Evidence</a></li>${p.watchForm ? html`<li><a href="#watch">Watch</a></li>` : ''}<li><a href="#share">Share</a></li>${p.history ? html`<li><a href="#history">History</a></li>` : ''}<li><a href="#method">Method</a></li></ul></nav>
</header>
<div class="top"><section aria-labelledby="why"><h2 id="why">Why “${words}”</h2>
<ul>${r.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>
<p class="small"><strong>Confidence ${r.confidence}:</strong> ${withoutLevel(r.confidenceNote, r.confidence)}</p></section>
<section aria-labelledby="score">${scoreBlock(r)}</section></div>
<section aria-labelledby="fix">${fixFirstSection(r, p.catalog)}</section>
${r.robotsPatch ? html`<section aria-labelledby="robots-patch">${robotsPatchSection(r.robotsPatch)}</section>` : ''}
${copies ? html`<section aria-labelledby="robots-copies">${copies}</section>` : ''}
${asked ? html`<section aria-labelledby="intent">${asked}</section>` : ''}
<section aria-labelledby="agents">${matrixSection(r.matrix, p.cliVantage, p.evidence)}</section>
<section aria-labelledby="checks">${checksSection(r, p.catalog)}</section>
${r.preview ? html`<section aria-labelledby="next-rubric">${nextRubricSection(r.preview, p.catalog, r.score.rubricVersion)}</section>` : ''}
<section aria-labelledby="evidence">${evidenceSection(r.evidenceRefs, p.evidence)}</section>
${p.watchForm ? html`<section aria-labelledby="watch">${watchFormSection(shown.name, p.watchForm)}</section>` : ''}
<section aria-labelledby="share">${shareSection(r.domain, r.reportUrl)}</section>
${p.history ? html`<section aria-labelledby="history">${historySection(r.domain, p.history, { scannedAt: r.scannedAt, headline: r.headline, score: r.score.value })}</section>` : ''}
<section aria-labelledby="method"><h2 id="method">How this was measured</h2>
<p>${r.probeMethod}</p>
<p class="muted small">This report never claims that a vendor's verified bot is blocked: it reports what the edge did with requests identifying as that agent from cloud networks. See the <a href="/methodology.md">methodology</a>.</p>
<p class="muted small">Versions: schema ${r.versions.schema}, ${r.versions.rubric}, ${r.versions.roster}, ${r.versions.fingerprints}. Report id <code>${r.scanId}</code>.</p></section>`;
  return layout(`${shown.name}: ${words} · agent-readiness report`, body);
}

/** The note as the API gives it starts with its level ("Low: the two networks…"); the page's label already says it. */
function withoutLevel(note: string, level: string): string {
  return note.toLowerCase().startsWith(`${level.toLowerCase()}: `) ? note.slice(level.length + 2) : note;
}

export function renderNotFoundPage(scanId: string): string {
  return layout('Report not found · agent-readiness', html`<h1>No report with this id</h1>
<p>There is no archived report at <code>/r/${scanId}</code>.</p>
<ul>
<li>Check that the link was copied completely: report ids are long and easy to cut short.</li>
<li>Scans of temporary tunnel hosts (ngrok, trycloudflare, …) are never archived and have no link.</li>
<li>A scan whose archive write failed returned its report only in the response, without a link.</li>
</ul>
<p>You can <a href="/">run a new scan</a>; see also <a href="/openapi.json">the API description</a> and the <a href="/methodology.md">methodology</a>.</p>`);
}

/** A report link whose id is not an id at all: most often a link cut short when it was copied. */
export function renderBadIdPage(scanId: string): string {
  return layout('Incomplete report link · agent-readiness', html`<h1>This report link is incomplete</h1>
<p><code>/r/${shorten(scanId)}</code> is not a report id. A report id has 36 characters, letters, digits and four dashes, like <code>3f2b8c1e-0a4d-4b6e-9f1a-2c3d4e5f6a7b</code>.</p>
<ul>
<li>Copy the link again from the email or the page that gave it: long links are often cut short when pasted or wrapped.</li>
</ul>
<p>You can <a href="/">run a new scan</a>; see also <a href="/openapi.json">the API description</a> and the <a href="/methodology.md">methodology</a>.</p>`);
}

/** Any path the service does not serve, for a person with a browser (programs get the Error object). */
export function renderNoSuchPage(path: string): string {
  return layout('Page not found · agent-readiness', html`<h1>There is no page here</h1>
<p>Nothing is served at <code>${shorten(path)}</code>.</p>
<p>People start at <a href="/">the scan form</a>, which links each report it makes. Programs start at <a href="/openapi.json">the API description</a>; how scans measure is in <a href="/methodology.md">the methodology</a>, and what is kept in <a href="/privacy">privacy</a>.</p>`);
}

/** What a page echoes of the address it was asked for: enough to recognise, never a wall of text. */
function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
