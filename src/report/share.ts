// Share (the permalink, the badge and its embed snippets, the JSON form) and history (this
// domain's earlier archived scans as a small server-drawn SVG chart and a table). History
// shows dates, headlines and scores only: never a link to a report someone else ran.
import type { HistoryPoint } from '../storage/queries/domainHistory.ts';
import { domainInText } from './domain-name.ts';
import { html, type SafeHtml } from './html.ts';
import { HEADLINE_ICON, HEADLINE_WORDS } from './words.ts';

export type { HistoryPoint };

export function shareSection(domain: string, reportUrl: string | undefined): SafeHtml {
  if (!reportUrl) {
    return html`<h2 id="share">Share</h2><p>This scan was not archived, so it has no permalink to share.</p>`;
  }
  const origin = new URL(reportUrl).origin;
  const badge = `${origin}/badge/${encodeURIComponent(domain)}.svg`;
  const alt = `agent-readiness of ${domain}`;
  const md = `[![${alt}](${badge})](${reportUrl})`;
  const tag = `<a href="${reportUrl}"><img src="${badge}" alt="${alt}"></a>`;
  return html`<h2 id="share">Share</h2>
<dl class="kv">
<dt>Permalink</dt><dd><a href="${reportUrl}">${reportUrl}</a><br><span class="muted small">Anyone with this link can read this report; it is listed nowhere.</span></dd>
<dt>Badge</dt><dd><img src="/badge/${encodeURIComponent(domain)}.svg" alt="The badge: score and headline of the latest archived scan of ${domainInText(domain)}"><br><span class="muted small">It always shows the domain's latest archived scan.</span></dd>
<dt>Markdown</dt><dd><pre><code>${md}</code></pre></dd>
<dt>HTML</dt><dd><pre><code>${tag}</code></pre></dd>
<dt>JSON</dt><dd><a href="${reportUrl}?format=json">This report as JSON</a> <span class="muted small">(or ask for <code>Accept: application/json</code>)</span></dd>
</dl>`;
}

const W = 600;
const H = 150;
const PAD = { l: 34, r: 12, t: 10, b: 24 };
const day = (iso: string) => iso.slice(0, 10);

function chart(points: readonly HistoryPoint[], domain: string): SafeHtml {
  const n = points.length;
  const x = (i: number) => PAD.l + (n === 1 ? (W - PAD.l - PAD.r) / 2 : (i * (W - PAD.l - PAD.r)) / (n - 1));
  const y = (v: number) => PAD.t + ((100 - v) * (H - PAD.t - PAD.b)) / 100;
  const f = (v: number) => v.toFixed(1);
  const scored = points.map((p, i) => ({ p, i })).filter(({ p }) => p.score !== null);
  const line = scored.map(({ p, i }, k) => `${k ? 'L' : 'M'}${f(x(i))} ${f(y(p.score!))}`).join(' ');
  const grid = [0, 50, 100].map((v) => html`<line class="axis" x1="${PAD.l}" x2="${W - PAD.r}" y1="${f(y(v))}" y2="${f(y(v))}"/><text x="${PAD.l - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v}</text>`);
  const dots = points.map((p, i) => {
    const last = i === n - 1;
    return p.score === null
      ? html`<circle class="nil" cx="${f(x(i))}" cy="${f(y(0))}" r="4"/>`
      : html`<circle class="${last ? 'now' : 'pt'}" cx="${f(x(i))}" cy="${f(y(p.score))}" r="${last ? 5 : 3.5}"/>`;
  });
  const first = points[0]!;
  const lastP = points[n - 1]!;
  const desc = `Scores of ${n} scans of ${domain}, from ${day(first.scannedAt)} (${first.score ?? 'no score'}) to ${day(lastP.scannedAt)} (${lastP.score ?? 'no score'}); the table below lists each.`;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="hist-title hist-desc" xmlns="http://www.w3.org/2000/svg">
<title id="hist-title">Score history of ${domain}</title><desc id="hist-desc">${desc}</desc>
${grid}${line ? html`<path class="line" d="${line}"/>` : ''}${dots}
<text x="${PAD.l}" y="${H - 6}">${day(first.scannedAt)}</text>${n > 1 ? html`<text x="${W - PAD.r}" y="${H - 6}" text-anchor="end">${day(lastP.scannedAt)}</text>` : ''}
</svg>`;
}

/** `earlier` oldest first (storage/queries/domainHistory.ts); this report is drawn last. */
export function historySection(dnsDomain: string, earlier: readonly HistoryPoint[], current: HistoryPoint): SafeHtml {
  const domain = domainInText(dnsDomain); // the prose names it as the page heading does
  if (earlier.length === 0) {
    return html`<h2 id="history">History</h2><p>This is the first archived scan of ${domain}; later scans will be drawn here.</p>`;
  }
  const points = [...earlier, current];
  const rows = [...points].reverse().map((p, i) => html`<tr><td><time datetime="${p.scannedAt}">${p.scannedAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC')}</time>${i === 0 ? html` <strong>(this report)</strong>` : ''}</td>
<td><span class="i" aria-hidden="true">${HEADLINE_ICON[p.headline] ?? '?'}</span>${HEADLINE_WORDS[p.headline] ?? p.headline}</td><td>${p.score === null ? 'no score' : p.score}</td></tr>`);
  return html`<h2 id="history">History</h2>
<p class="muted small">Earlier archived scans of ${domain}, whoever ran them; their reports stay private to them.</p>
${chart(points, domain)}
<div class="scroll" role="region" aria-label="Score history table" tabindex="0"><table>
<thead><tr><th scope="col">Scanned</th><th scope="col">Headline</th><th scope="col">Score</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

