// What changed between two reports, as a page on the report page's bar: no script, the one
// stylesheet, every value escaped by `html`, outcomes as an icon and a word (colour repeats the
// word). The order answers a site owner's questions: what changed in a sentence, the headline
// and score, what the edge now does to each agent, robots.txt line by line, the checks, the
// vendors. Same diff, same bytes.
import type { ReportDiff } from '../changes/diff.ts';
import { NETWORK_WORDS } from '../changes/words.ts';
import { vendorName } from '../scanner/fingerprints.ts';
import { displayDomain } from './domain-name.ts';
import { unified } from './udiff.ts';
import { html, type SafeHtml } from './html.ts';
import { layout, utc } from './page.ts';
import { checkWord, edgeWord, HEADLINE_ICON, HEADLINE_WORDS, robotsWord, verdictWord } from './words.ts';

const headlineWord = (h: string): SafeHtml => html`<span class="i" aria-hidden="true">${HEADLINE_ICON[h] ?? '?'}</span>${HEADLINE_WORDS[h] ?? h}`;
const when = (iso: string): SafeHtml => html`<time datetime="${iso}">${utc(iso)}</time>`;

function overview(d: ReportDiff): SafeHtml {
  const delta = d.score.delta === null ? '' : d.score.delta > 0 ? `+${d.score.delta}` : String(d.score.delta);
  return html`<div class="scroll" role="region" aria-label="Headline, score and confidence" tabindex="0"><table>
<thead><tr><th scope="col">What</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
<tbody>
<tr><th scope="row">Headline</th><td>${headlineWord(d.headline.before)}</td><td>${headlineWord(d.headline.after)}${d.headline.changed ? html` <strong>(changed)</strong>` : ''}</td></tr>
<tr><th scope="row">Score</th><td>${d.score.before ?? 'no score'}</td><td>${d.score.after ?? 'no score'}${delta ? html` <strong>(${delta})</strong>` : ''}${d.sameRubric ? '' : html` <span class="muted small">(another rubric: not compared)</span>`}</td></tr>
<tr><th scope="row">Confidence</th><td>${d.confidence.before}</td><td>${d.confidence.after}</td></tr>
<tr><th scope="row">Rubric</th><td>${d.from.rubricVersion}</td><td>${d.to.rubricVersion}</td></tr>
</tbody></table></div>`;
}

function cellsSection(d: ReportDiff): SafeHtml {
  if (d.cells.length === 0) return html`<h2 id="agents">Agents</h2><p>No agent's robots.txt verdict or edge outcome changed on either network.</p>`;
  const rows = d.cells.map((c) => {
    const net = c.network ? NETWORK_WORDS[c.network] ?? c.network : 'robots.txt only';
    const usable = !c.network ? '' : c.usable.before && c.usable.after ? '' : html`<br><span class="muted small">browser control ${c.usable.after ? 'failed before' : 'failed after'}: not measured</span>`;
    const edge = c.edge.before === null && c.edge.after === null ? html`<span class="muted">token only</span>`
      : html`${edgeWord(c.edge.before ?? 'unprobed')} → ${edgeWord(c.edge.after ?? 'unprobed')}${usable}`;
    return html`<tr><th scope="row">${c.agent}</th><td>${net}</td><td>${robotsWord(c.robotsSays.before)} → ${robotsWord(c.robotsSays.after)}</td><td>${edge}</td><td>${verdictWord(c.verdict.before)} → ${verdictWord(c.verdict.after)}</td></tr>`;
  });
  return html`<h2 id="agents">Agents</h2>
<p class="muted small">Each cell (agent × network) whose robots.txt verdict or edge outcome changed: what robots.txt says to the agent, and what the site's edge did with requests identifying as that agent from each datacenter network. An outcome on a network whose browser control failed says nothing about the agent.</p>
<div class="scroll" role="region" aria-label="Changed agent cells" tabindex="0"><table>
<thead><tr><th scope="col">Agent</th><th scope="col">Network</th><th scope="col">robots.txt</th><th scope="col">Edge</th><th scope="col">Verdict</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function robotsSection(d: ReportDiff): SafeHtml {
  const r = d.robotsTxt;
  return html`<h2 id="robots">robots.txt</h2>
<p>${r.note}${r.changed && r.unifiedDiff ? html` ${r.added} line${r.added === 1 ? '' : 's'} added, ${r.removed} removed.` : ''}</p>
${r.unifiedDiff ? unified(r.unifiedDiff) : ''}
${(r.requesters ?? []).map((q) => html`<h3>As ${q.agents.join(', ')} ${q.agents.length === 1 ? 'gets' : 'get'} it</h3>
<p>${q.note}${q.changed && q.unifiedDiff ? html` ${q.added} line${q.added === 1 ? '' : 's'} added, ${q.removed} removed.` : ''}</p>
${q.unifiedDiff ? unified(q.unifiedDiff, `robots.txt as ${q.agents.join(', ')} got it, unified diff: lines starting with + were added, with - removed`) : ''}`)}`;
}

function checksSection(d: ReportDiff): SafeHtml {
  if (d.checks.length === 0) return html`<h2 id="checks">Checks</h2><p>No check's status or credit changed.</p>`;
  const state = (s: ReportDiff['checks'][number]['before']) => (s ? html`${checkWord(s.status)}${s.credit !== undefined && s.credit < 1 && s.status === 'pass' ? html` <span class="muted small">(${Math.round(s.credit * 100)} % credit)</span>` : ''}` : html`<span class="muted">not in this rubric</span>`);
  return html`<h2 id="checks">Checks</h2>
<div class="scroll" role="region" aria-label="Changed checks" tabindex="0"><table>
<thead><tr><th scope="col">Check</th><th scope="col">Category</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
<tbody>${d.checks.map((c) => html`<tr><th scope="row"><code>${c.id}</code></th><td>${c.category}</td><td>${state(c.before)}</td><td>${state(c.after)}</td></tr>`)}</tbody></table></div>`;
}

function vendorsSection(d: ReportDiff): SafeHtml {
  const { appeared, left } = d.vendors;
  if (appeared.length === 0 && left.length === 0) return html`<h2 id="vendors">Edge vendors</h2><p>The same edge vendors were attributed in both reports.</p>`;
  return html`<h2 id="vendors">Edge vendors</h2>
<dl class="kv"><dt>Now seen</dt><dd>${appeared.length ? appeared.map((v, i) => html`${i ? ', ' : ''}${v.name || vendorName(v.id)}`) : 'none'}</dd>
<dt>No longer seen</dt><dd>${left.length ? left.map((v, i) => html`${i ? ', ' : ''}${v.name || vendorName(v.id)}`) : 'none'}</dd></dl>`;
}

export function renderDiffPage(d: ReportDiff): string {
  const shown = displayDomain(d.domain);
  const body = html`<header>
<p class="muted small">Agent-readiness · what changed between two reports</p>
<h1>${shown.name}</h1>${shown.ascii ? html`<p class="muted small">As DNS spells it: <code>${shown.ascii}</code></p>` : ''}
<p>From <a href="${d.from.reportUrl}">the report of ${when(d.from.scannedAt)}</a> to <a href="${d.to.reportUrl}">the report of ${when(d.to.scannedAt)}</a>.</p>
<nav aria-label="Sections"><ul><li><a href="#summary">Summary</a></li><li><a href="#agents">Agents</a></li><li><a href="#robots">robots.txt</a></li><li><a href="#checks">Checks</a></li><li><a href="#vendors">Edge vendors</a></li></ul></nav>
</header>
<section aria-labelledby="summary"><h2 id="summary">What changed</h2>
${d.summary.length ? html`<ul>${d.summary.map((s) => html`<li>${s}</li>`)}</ul>` : html`<p>Nothing changed between these two scans.</p>`}
${overview(d)}</section>
<section aria-labelledby="agents">${cellsSection(d)}</section>
<section aria-labelledby="robots">${robotsSection(d)}</section>
<section aria-labelledby="checks">${checksSection(d)}</section>
<section aria-labelledby="vendors">${vendorsSection(d)}</section>
<p class="muted small">Which of these changes make a watch send an alert is in the <a href="/methodology.md">methodology</a> (“What counts as a change”). <a href="${d.diffUrl}?format=json">This comparison as JSON</a>.</p>`;
  return layout(`${shown.name}: what changed · agent-readiness`, body);
}

/** Two reports of different sites (or an MCP-server report): nothing to compare. */
export function renderNotComparablePage(message: string): string {
  return layout('Reports cannot be compared · agent-readiness', html`<h1>These reports cannot be compared</h1>
<p>${message}</p>
<p>A comparison shows what changed between two reports of the same site. Open each report from its own link, or <a href="/">run a new scan</a>.</p>`);
}
