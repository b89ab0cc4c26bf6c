// The report's detail sections: every check with why/fix, and the stored evidence, one folded
// entry per probe: what we sent, what came back and the curl line that repeats it.
import type { CheckResult, EvidenceRecord } from '../scanner/types.ts';
import type { ScanReportBody } from '../scans/types.ts';
import { html, type SafeHtml } from './html.ts';
import { fixHtml, fixesFor } from './platform-fix.ts';
import { evidenceAnchor } from './matrix.ts';
import { checkWord, edgeWord } from './words.ts';

export interface CatalogEntry { name: string; why: string; fix: string }
export type CatalogLookup = (checkId: string) => CatalogEntry | undefined;

export function checksSection(report: ScanReportBody, catalog: CatalogLookup): SafeHtml {
  const checks = report.checks;
  const rows = checks.map((c) => {
    const meta = catalog(c.id);
    const credit = c.credit !== undefined && c.credit < 1 ? html` <span class="muted">(credit ${Math.round(c.credit * 100)}%)</span>` : '';
    return html`<tr>
<td class="wrap"><strong>${meta?.name ?? c.id}</strong><br><code class="muted">${c.id}</code> <span class="muted small">· ${c.category} · weight ${c.weight}</span></td>
<td>${checkWord(c.status)}${credit}</td>
<td class="wrap">${c.detail ? html`<p>${c.detail}</p>` : ''}${meta ? html`<details><summary>Why it matters and how to fix it</summary><p><strong>Why:</strong> ${meta.why}</p>${fixHtml(fixesFor(report, c.id), meta.fix)}</details>` : ''}</td>
</tr>`;
  });
  const count = (s: string) => checks.filter((c) => c.status === s).length;
  return html`<h2 id="checks">All checks</h2>
<details><summary>${checks.length} checks: ${count('pass')} pass, ${count('fail')} fail, ${checks.length - count('pass') - count('fail')} not counted</summary>
<p class="muted small">Inconclusive, skipped and errored checks are left out of the score; they never count against the site.</p>
<div class="scroll" role="region" aria-label="Table of all checks" tabindex="0"><table>
<thead><tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}

function headerList(h: Record<string, string> | undefined): SafeHtml | string {
  const entries = Object.entries(h ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length ? html`<pre><code>${entries.map(([k, v]) => `${k}: ${v}\n`)}</code></pre>` : '';
}

function probe(e: EvidenceRecord): SafeHtml {
  const status = e.status === 0 ? 'no answer' : `HTTP ${e.status}`;
  // The anchor sits inside the fold: following a link to it opens the probe (and the section).
  return html`<details class="ev"><summary><code>${e.key}</code> · ${e.network} · ${edgeWord(e.outcome)} <span class="muted">${status}</span></summary>
<div class="sides" id="${evidenceAnchor(e.id)}"><div><h3>What we sent</h3>
<dl class="kv"><dt>Request</dt><dd><code>${e.method ?? 'GET'} ${e.url}</code></dd><dt>User-Agent</dt><dd><code>${e.userAgent}</code></dd><dt>Accept</dt><dd><code>${e.accept}</code></dd></dl>
${e.requestHeaders ? html`<details><summary>Every request header</summary>${headerList(e.requestHeaders)}</details>` : ''}</div>
<div><h3>What came back</h3>
<dl class="kv"><dt>Status</dt><dd>${status}${e.errorCode ? html` <span class="muted">${e.errorCode}${e.errorMessage ? `: ${e.errorMessage}` : ''}</span>` : ''}</dd>
<dt>Outcome</dt><dd>${edgeWord(e.outcome)}${e.vendors.length ? html` <span class="muted">(${e.vendors.join(', ')})</span>` : ''}</dd>
${e.finalUrl && e.finalUrl !== e.url ? html`<dt>Final URL</dt><dd><code>${e.finalUrl}</code></dd>` : ''}
${e.redirects.length ? html`<dt>Redirects</dt><dd>${e.redirects.map((r, i) => html`${i ? ' → ' : ''}<code>${r}</code>`)}</dd>` : ''}
${e.title ? html`<dt>Title</dt><dd>“${e.title}”</dd>` : ''}
${e.markers.length ? html`<dt>Markers</dt><dd>${e.markers.join(', ')}</dd>` : ''}
<dt>Body</dt><dd>${e.bodyBytes} bytes${e.bodyTruncated ? ' (truncated)' : ''}, ${e.textChars} characters of text, sha256 <code>${e.bodySha256.slice(0, 16)}…</code></dd>
<dt>Time</dt><dd>${e.timingMs} ms</dd>
${e.setCookieNames.length ? html`<dt>Cookies set</dt><dd>${e.setCookieNames.join(', ')}</dd>` : ''}</dl>
${Object.keys(e.headers).length ? html`<details><summary>Response headers</summary>${headerList(e.headers)}</details>` : ''}</div></div>
${e.curl ? html`<p><strong>Repeat it:</strong></p><pre><code>${e.curl}</code></pre>` : ''}</details>`;
}

export function evidenceSection(refs: readonly string[], evidence: readonly EvidenceRecord[]): SafeHtml {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const stored = refs.map((r) => byId.get(r)).filter((e): e is EvidenceRecord => e !== undefined);
  const missing = refs.length - stored.length;
  return html`<h2 id="evidence">Evidence</h2>
<details><summary>${stored.length} stored probe${stored.length === 1 ? '' : 's'}${missing ? `, ${missing} not stored` : ''}</summary>
<p class="muted small">Each probe as sent and as answered${stored.some((e) => e.curl) ? ', with the curl line that repeats it' : ''}. Bodies are not kept, only their size, text length and hash.</p>
${stored.map(probe)}</details>`;
}
