// "What you asked for": the owner's intent (ScanRequest.intent) against what robots.txt and the
// edge do, one row per role, shown before the agent grid. Only on reports scanned with an intent;
// every value goes through the `html` tag, so nothing in a report can write markup.
import type { ScanReportBody } from '../scans/types.ts';
import { html, type SafeHtml } from './html.ts';

type IntentReport = NonNullable<ScanReportBody['intent']>;
type Role = IntentReport['roles'][number];

const ROLE: Record<string, string> = { training: 'Training crawlers', search: 'AI search crawlers', 'user-fetch': 'Fetchers acting for a user', archive: 'Archive crawlers' };
const WISH: Record<string, string> = { allow: 'let in', block: 'turned away', charge: 'charged (HTTP 402)' };
const SAYS: Record<string, string> = { allow: 'allows', block: 'disallows', mixed: 'differs by agent', unknown: 'could not be read' };
const DOES: Record<string, string> = { allow: 'lets in', block: 'turns away', charge: 'charges (402)', mixed: 'differs by agent', undecided: 'not decided' };

function verdict(r: Role): SafeHtml {
  if (r.asIntended === null) return html`<span class="chip none">not decided</span>`;
  return r.asIntended ? html`<span class="chip ok">as you asked</span>` : html`<span class="chip warn">not as you asked</span>`;
}

function fix(r: Role): SafeHtml | '' {
  if (!r.fix) return '';
  const f = r.fix;
  return html`<p class="small">${f.text}${f.docUrl ? html` <a class="doc" href="${f.docUrl}" rel="noopener noreferrer">${f.docUrl.replace(/^https:\/\//, '').replace(/\/$/, '')}</a>` : ''}</p>
${f.robotsTxt ? html`<pre class="udiff" tabindex="0" aria-label="robots.txt lines for ${ROLE[r.role] ?? r.role}"><code>${f.robotsTxt}</code></pre>` : ''}`;
}

export function intentSection(report: ScanReportBody): SafeHtml | '' {
  const i = report.intent;
  if (!i || i.roles.length === 0) return '';
  const rows = i.roles.map((r) => html`<tr><th scope="row">${ROLE[r.role] ?? r.role}</th><td>${WISH[r.wanted] ?? r.wanted}</td><td>${SAYS[r.robotsSays] ?? r.robotsSays}</td><td>${DOES[r.edgeDoes] ?? r.edgeDoes}</td><td>${verdict(r)}${r.missed?.length ? html`<br><span class="small muted">not for ${r.missed.join(', ')}</span>` : ''}</td></tr>`);
  const fixes = i.roles.filter((r) => r.fix).map((r) => html`<h3>${ROLE[r.role] ?? r.role}</h3>${fix(r)}`);
  return html`<h2 id="intent">What you asked for</h2>
<p>${i.asIntended.decided === 0 ? 'No role you named could be decided from this scan.' : `${i.asIntended.met} of ${i.asIntended.decided} decided roles get what you asked for, in robots.txt and at the edge alike.`} <span class="muted small">Your wishes never change the score or the headline.</span></p>
<div class="scroll"><table><thead><tr><th scope="col">Role</th><th scope="col">You asked</th><th scope="col">robots.txt</th><th scope="col">The edge</th><th scope="col">Result</th></tr></thead><tbody>${rows}</tbody></table></div>
${fixes}`;
}
