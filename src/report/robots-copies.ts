// robots.txt as each requester got it: the copies (who was served which), and an edge's managed
// block shown apart from the owner's own lines, with the vendor's setting. Shown only when there
// is something to tell: more than one copy, or a managed block. Reports made before robots.txt was
// read per requester carry no `robotsTxt` and show nothing here.
import type { ScanReportBody } from '../scans/types.ts';
import { html, type SafeHtml } from './html.ts';

type RobotsTxt = NonNullable<ScanReportBody['robotsTxt']>;
type Copy = RobotsTxt['copies'][number];

const STATE: Record<string, string> = { present: 'a text file', absent: 'no file (a 4xx: no rules)', unknown: 'not readable' };

function who(list: readonly string[] | undefined): string {
  if (!list || list.length === 0) return '—';
  const shown = list.slice(0, 12).join(', ');
  return list.length > 12 ? `${shown} and ${list.length - 12} more` : shown;
}

function copyRow(c: Copy, network: string, second: string): SafeHtml {
  return html`<tr><td><code>${c.sha256.slice(0, 12)}</code></td><td>${c.bytes} bytes${c.status !== undefined ? html`, HTTP ${c.status}` : ''}</td><td>${STATE[c.state ?? 'present'] ?? c.state}</td><td class="wrap">${network}: ${who(c.requesters)}${c.secondNetwork?.length ? html`<br>${second}: ${who(c.secondNetwork)}` : ''}</td></tr>`;
}

function managedBlock(m: NonNullable<RobotsTxt['managed']>): SafeHtml {
  const first = m.firstLine ?? 1;
  const lines = m.lines ?? [];
  const numbered = lines.map((l, i) => html`<span class="dh">${String(first + i).padStart(3, ' ')}</span>  ${l}\n`);
  const cut = m.lastLine !== undefined && lines.length < m.lastLine - first + 1 ? html`<p class="muted small">The first ${lines.length} of its ${m.lastLine - first + 1} lines are shown.</p>` : '';
  return html`<h3>${m.vendorName ?? m.vendor}'s managed lines</h3>
<p>Lines ${first}–${m.lastLine ?? first + lines.length - 1} of robots.txt were added by ${m.vendorName ?? m.vendor} at the edge, above the site's own rules${m.lastLine !== undefined ? html` (which start at line ${m.lastLine + 1})` : ''}. ${m.agents.length ? html`They decide what robots.txt says to <strong>${m.agents.join(', ')}</strong>: the site's own lines alone would say otherwise.` : 'No agent\'s verdict depends on them.'}</p>
<pre class="udiff" tabindex="0" aria-label="${m.vendorName ?? m.vendor}'s managed lines of robots.txt, with line numbers"><code>${numbered}</code></pre>${cut}
${m.setting ? html`<p><strong>Setting:</strong> <em>${m.setting}</em>. ${m.fix ?? ''}${m.docUrl ? html` <a class="doc" href="${m.docUrl}" rel="noopener noreferrer">${m.docUrl.replace(/^https:\/\//, '').replace(/\/$/, '')}</a>` : ''}</p>` : ''}`;
}

export function robotsTxtSection(report: ScanReportBody): SafeHtml | '' {
  const r = report.robotsTxt;
  if (!r || (r.copies.length <= 1 && !r.managed)) return '';
  const network = r.network ?? 'networkA';
  const second = network === 'networkA' ? 'networkB' : 'networkA';
  const lead = r.variesByRequester
    ? 'robots.txt is not the same for every requester. Each agent\'s robots.txt verdict follows the copy it was served (RFC 9309); an agent whose request for robots.txt was refused or failed, and a token-only agent, is judged by the browser\'s copy.'
    : r.copies.length > 1 ? 'Some requests for robots.txt were answered differently, but every readable copy says the same.' : 'Every requester was served the same robots.txt.';
  return html`<h2 id="robots-copies">robots.txt as each agent gets it</h2>
<p>${lead}</p>
${r.copies.length > 1 ? html`<div class="scroll" role="region" aria-label="Copies of robots.txt and who was served each" tabindex="0"><table>
<thead><tr><th scope="col">Copy (SHA-256)</th><th scope="col">Size</th><th scope="col">What it is</th><th scope="col">Served to</th></tr></thead>
<tbody>${r.copies.map((c) => copyRow(c, network, second))}</tbody></table></div>` : ''}
${r.managed ? managedBlock(r.managed) : ''}`;
}
