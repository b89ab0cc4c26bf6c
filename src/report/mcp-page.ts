// An archived MCP-server report for a browser: the checklist as a page. JSON stays the
// default for this kind (GET /r/{scanId} answers HTML only to a request that prefers it).
import type { components } from '../../generated/api-types.ts';
import { html, inlineCode, type SafeHtml } from './html.ts';
import { layout, utc } from './page.ts';
import { checkWord } from './words.ts';

type McpServerReport = components['schemas']['McpServerReport'];
type McpCheck = components['schemas']['McpCheck'];
type McpConformance = components['schemas']['McpConformance'];

const ORDER: Record<string, number> = { fail: 0, inconclusive: 1, pass: 2 };
const LEVEL: Record<string, number> = { must: 0, should: 1, may: 2 };

function checkRow(c: McpCheck): SafeHtml {
  const ev = c.evidence;
  const spec = /^https:\/\//.test(c.spec) ? html`<a href="${c.spec}">specification</a>` : html`<code>${c.spec}</code>`;
  return html`<tr><td class="wrap"><strong>${c.title}</strong><br><code class="muted">${c.id}</code></td>
<td>${checkWord(c.status)}${c.reason ? html`<br><span class="muted small">${c.reason}</span>` : ''}</td><td>${c.level.toUpperCase()}</td>
<td class="wrap"><p>${c.detail}</p>${ev ? html`<details><summary>Evidence</summary><dl class="kv">${ev.request ? html`<dt>Request</dt><dd><code>${ev.request}</code></dd>` : ''}${ev.httpStatus !== undefined ? html`<dt>Status</dt><dd>${ev.httpStatus}</dd>` : ''}${ev.contentType ? html`<dt>Type</dt><dd><code>${ev.contentType}</code></dd>` : ''}</dl>${ev.snippet ? html`<pre><code>${ev.snippet}</code></pre>` : ''}</details>` : ''}<p class="small">${spec}</p></td></tr>`;
}

/** The conformance suite's required scenarios next to our checks: fails first, then the rest in the requirements order. */
function conformanceSection(c: McpConformance | undefined): SafeHtml | string {
  if (!c) return '';
  const rank: Record<string, number> = { fail: 0, pass: 1, 'not-verified': 2, 'not-applicable': 3 };
  const rows = c.scenarios.map((s, i) => ({ s, i })).sort((a, b) => (rank[a.s.status] ?? 4) - (rank[b.s.status] ?? 4) || a.i - b.i)
    .map(({ s }) => html`<tr><td><code>${s.scenario}</code></td><td>${checkWord(s.status)}</td>
<td>${s.checks.length ? s.checks.map((id, i) => html`${i ? html`<br>` : ''}<code class="muted">${id}</code>`) : '—'}</td><td class="wrap">${inlineCode(s.detail)}</td></tr>`);
  const n = c.counts;
  return html`<section aria-labelledby="conformance"><h2 id="conformance">Conformance suite, ${c.requirements} server requirements</h2>
<p>The ${n.pass + n.fail + n.notApplicable + n.notVerified} scenarios <code>${c.suite}</code> requires of a server for ${c.requirements}, judged from this scan's own requests; no tool was called.
${checkWord('pass')} ${n.pass} · ${checkWord('fail')} ${n.fail} · ${checkWord('not-verified')} ${n.notVerified} · ${checkWord('not-applicable')} ${n.notApplicable}</p>
<p class="muted small">Not applicable: the scenario needs the suite's own fixture tools, prompts or resources, or a localhost server. Not verified: it needs a request the scanner does not send, such as a tool call.
Source: <a href="${c.source.repository}/blob/${c.source.commit}/${c.source.path}"><code>${c.source.path}</code></a> · mapping ${c.version}.</p>
<div class="scroll" role="region" aria-label="Conformance scenarios table" tabindex="0"><table><thead><tr><th scope="col">Scenario</th><th scope="col">Result</th><th scope="col">Our checks</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
}

export function renderMcpReportPage(r: McpServerReport): string {
  const h = r.headline;
  const checks = [...r.checks].sort((a, b) => (ORDER[a.status] ?? 3) - (ORDER[b.status] ?? 3) || (LEVEL[a.level] ?? 3) - (LEVEL[b.level] ?? 3) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const name = r.server?.title ?? r.server?.name ?? null;
  const facts: Array<[string, string]> = [
    ['Reachable', h.reachable ? 'yes' : 'no'], ['Access', h.access], ['Transport', h.transport], ['Era', h.era],
    ['Protocol version', h.protocolVersion ?? 'unknown'], ['Sessions', h.sessions ?? 'unknown'], ['Tools', h.toolCount === null ? 'unknown' : String(h.toolCount)],
  ];
  const tools = r.tools.items.map((t) => html`<tr><td><code>${t.name}</code>${t.title ? html`<br>${t.title}` : ''}</td><td>${t.params} (${t.required} required)</td>
<td>${t.readOnlyHint === true ? 'read-only' : t.destructiveHint === true ? 'destructive' : '—'}</td><td class="wrap">${t.issues.length ? html`<ul>${t.issues.map((i) => html`<li>${i}</li>`)}</ul>` : 'none'}</td></tr>`);
  const body = html`<header><p class="muted small">MCP server report · a point-in-time checklist, not scored</p>
<h1>${r.target.input}</h1>
<p>${name ? html`<strong>${name}</strong>${r.server?.version ? ` ${r.server.version}` : ''} · ` : ''}<span class="muted small">endpoint <code>${r.target.endpoint ?? 'not found'}</code> · checked <time datetime="${r.startedAt}">${utc(r.startedAt)}</time> in ${r.durationMs} ms</span></p>
<p>${checkWord('pass')} ${h.checks.pass} · ${checkWord('fail')} ${h.checks.fail} · ${checkWord('inconclusive')} ${h.checks.inconclusive}</p></header>
<section aria-labelledby="facts"><h2 id="facts">The server</h2><dl class="kv">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}
${r.manifest ? html`<dt>Server card</dt><dd><code>${r.manifest.url}</code> (${r.manifest.format})</dd>` : ''}
${r.auth?.challenge ? html`<dt>Auth challenge</dt><dd><code>${r.auth.challenge}</code></dd>` : ''}</dl></section>
<section aria-labelledby="checklist"><h2 id="checklist">Checklist</h2>
<div class="scroll" role="region" aria-label="Checklist table" tabindex="0"><table><thead><tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Level</th><th scope="col">Detail</th></tr></thead>
<tbody>${checks.map(checkRow)}</tbody></table></div></section>
${conformanceSection(r.conformance)}
${tools.length ? html`<section aria-labelledby="tools"><h2 id="tools">Tools</h2><div class="scroll" role="region" aria-label="Tools table" tabindex="0"><table><thead><tr><th scope="col">Tool</th><th scope="col">Parameters</th><th scope="col">Hints</th><th scope="col">Issues</th></tr></thead><tbody>${tools}</tbody></table></div></section>` : ''}
<section aria-labelledby="share"><h2 id="share">Share</h2><p>${r.reportUrl ? html`<a href="${r.reportUrl}">Permalink</a> · <a href="${r.reportUrl}?format=json">this report as JSON</a>` : 'Not archived: no permalink.'}</p>
<p class="muted small">Scanner ${r.scannerVersion}. Report id <code>${r.scanId}</code>.</p></section>`;
  return layout(`${r.target.input}: MCP server checklist · agent-readiness`, body);
}
