// The report's detail sections: checks with why/fix, the access matrix (plus the user's own
// network when a CLI vantage is attached) and the stored evidence.
import type { CheckResult, EvidenceRecord, MatrixEntry } from '../scanner/types.ts';
import type { CliVantage } from '../scans/types.ts';
import { html, type SafeHtml } from './html.ts';

export interface CatalogEntry { name: string; why: string; fix: string }
export type CatalogLookup = (checkId: string) => CatalogEntry | undefined;

const STATUS_WORD: Record<string, string> = {
  pass: 'Pass', fail: 'Fail', inconclusive: 'Inconclusive (not counted)', skipped: 'Skipped (not counted)', error: 'Error (not counted)',
};

export function checksSection(checks: readonly CheckResult[], catalog: CatalogLookup): SafeHtml {
  const rows = checks.map((c) => {
    const meta = catalog(c.id);
    const credit = c.credit !== undefined && c.status !== 'fail' && c.credit < 1 ? html` (credit ${Math.round(c.credit * 100)}%)` : '';
    return html`<tr>
<td class="wrap"><strong>${meta?.name ?? c.id}</strong><br><code>${c.id}</code></td>
<td>${c.category}</td>
<td class="s-${c.status}"><strong>${STATUS_WORD[c.status] ?? c.status}</strong>${credit}</td>
<td class="wrap">${c.detail ? html`<p>${c.detail}</p>` : ''}${meta ? html`<details><summary>Why it matters and how to fix it</summary><p><strong>Why:</strong> ${meta.why}</p><p><strong>Fix:</strong> ${meta.fix}</p></details>` : ''}</td>
</tr>`;
  });
  return html`<h2 id="checks">Checks</h2>
<p class="muted">Inconclusive, skipped and errored checks are left out of the score; they are never counted against the site.</p>
<div class="scroll" role="region" aria-labelledby="checks" tabindex="0"><table>
<thead><tr><th scope="col">Check</th><th scope="col">Category</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function userCell(row: MatrixEntry, cli: CliVantage | null): SafeHtml | string {
  if (!cli) return '';
  const obs = cli.observations.find((o) => o.key === `grid:${row.ua}`);
  if (!obs) return html`<td class="muted">not reported</td>`;
  return html`<td>${obs.status === 0 ? 'no answer' : `HTTP ${obs.status}`}${obs.error ? html`<br><span class="muted">${obs.error}</span>` : ''}</td>`;
}

function edge(row: MatrixEntry, net: 'networkA' | 'networkB'): SafeHtml {
  if (!row.edgeDoes) return html`<td class="muted">not probed (token only)</td>`;
  const status = row.httpStatus?.[net];
  return html`<td>${row.edgeDoes[net]}${status ? html` <span class="muted">(${status})</span>` : ''}</td>`;
}

export function matrixSection(matrix: readonly MatrixEntry[], cli: CliVantage | null): SafeHtml {
  const rows = matrix.map((m) => html`<tr>
<th scope="row">${m.ua}</th><td>${m.intent}</td><td>${m.robotsSays}</td>${edge(m, 'networkA')}${edge(m, 'networkB')}${userCell(m, cli)}
<td><strong>${m.verdict}</strong><br><span class="muted">${m.measurement}</span></td>
<td class="wrap">${m.attributedVendors.join(", ")}</td><td class="wrap">${m.notes.length ? html`<ul>${m.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}</td>
</tr>`);
  const control = cli?.observations.find((o) => o.key === 'control:browser');
  return html`<h2 id="matrix">Agent access matrix</h2>
<p class="muted">What robots.txt says for each agent, and what the site's edge did with requests identifying as that agent from two datacenter networks.
${cli ? html` The “your network” column is self-reported by the command-line client (observed ${cli.observedAt}${control ? html`; browser control: HTTP ${control.status}` : ''}); it is evidence only and never changes the verdict or score.` : ''}</p>
<div class="scroll" role="region" aria-labelledby="matrix" tabindex="0"><table>
<thead><tr><th scope="col">Agent</th><th scope="col">Intent</th><th scope="col">robots.txt</th><th scope="col">networkA</th><th scope="col">networkB</th>${cli ? html`<th scope="col">Your network</th>` : ''}<th scope="col">Verdict</th><th scope="col">Vendors</th><th scope="col">Notes</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export function evidenceSection(refs: readonly string[], evidence: readonly EvidenceRecord[]): SafeHtml {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const rows = refs.map((ref) => {
    const e = byId.get(ref);
    if (!e) return html`<tr><td><code>${ref}</code></td><td colspan="5" class="muted">not stored</td></tr>`;
    return html`<tr>
<td><code>${e.id}</code></td><td>${e.network}<br><code>${e.key}</code></td>
<td>${e.status === 0 ? 'no answer' : e.status}${e.errorCode ? html`<br><span class="muted">${e.errorCode}</span>` : ''}</td>
<td>${e.outcome}${e.vendors.length ? html`<br><span class="muted">${e.vendors.join(', ')}</span>` : ''}</td>
<td class="wrap"><code>${e.finalUrl || e.url}</code>${e.title ? html`<br>title: “${e.title}”` : ''}${e.markers.length ? html`<br>markers: ${e.markers.join(', ')}` : ''}${e.curl ? html`<details><summary>Sent, and how to repeat it</summary><p>${e.method ?? 'GET'} ${e.url}</p><ul>${Object.entries(e.requestHeaders ?? {}).map(([k, v]) => html`<li><code>${k}: ${v}</code></li>`)}</ul><pre><code>${e.curl}</code></pre></details>` : ''}</td>
<td>${e.bodyBytes} B, ${e.timingMs} ms</td></tr>`;
  });
  return html`<h2 id="evidence">Evidence</h2>
<details><summary>${refs.length} stored probe${refs.length === 1 ? '' : 's'}</summary>
<div class="scroll" role="region" aria-labelledby="evidence" tabindex="0"><table>
<thead><tr><th scope="col">Ref</th><th scope="col">Network / cell</th><th scope="col">Status</th><th scope="col">Edge outcome</th><th scope="col">Response</th><th scope="col">Size, time</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}
