// A check's fix as the report shows it: the fix for each platform that served the page first, in
// that platform's words with its documentation link (and the configuration to paste), and the
// generic fix folded below it. Also the list of attributed platforms and the robots.txt patch.
import type { ScanReportBody } from '../scans/types.ts';
import { unified } from './udiff.ts';
import { html, type SafeHtml } from './html.ts';
import { robotsWord } from './words.ts';

type PlatformFix = NonNullable<ScanReportBody['platformFixes']>[number];
type RobotsPatch = NonNullable<ScanReportBody['robotsPatch']>;

/** A documentation link shown as where it leads (host and path), so each link says its own destination. */
function shortUrl(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname.replace(/\/$/, '')}`;
}

const ROLE: Record<string, string> = { edge: 'edge', host: 'host', origin: 'web server', cms: 'CMS', plugin: 'plugin' };

export function fixesFor(report: ScanReportBody, checkId: string): PlatformFix[] {
  return (report.platformFixes ?? []).filter((f) => f.checkId === checkId);
}

/** The platform fixes of one check, then the generic fix folded; only the generic fix when no platform has one. */
export function fixHtml(fixes: readonly PlatformFix[], generic: string | undefined): SafeHtml | string {
  if (fixes.length === 0) return generic ? html`<span><strong>Fix:</strong> ${generic}</span>` : '';
  const items = fixes.map((f) => html`<div class="pfix"><p><strong>Fix on ${f.platformName}:</strong> <em>${f.setting}</em>. ${f.text} <a class="doc" href="${f.docUrl}" rel="noopener noreferrer">${shortUrl(f.docUrl)}</a></p>
${f.snippet ? html`<pre><code>${f.snippet}</code></pre>` : ''}</div>`);
  return html`<div class="pfixes">${items}${generic ? html`<details><summary>Generic fix</summary><p>${generic}</p></details>` : ''}</div>`;
}

export function platformsLine(report: ScanReportBody): SafeHtml | string {
  const p = report.platforms ?? [];
  if (p.length === 0) return '';
  return html`<p class="small">Served by ${p.map((a, i) => html`${i ? ', ' : ''}<strong>${a.name}</strong> <span class="muted">(${ROLE[a.role] ?? a.role}: ${a.evidence})</span>`)}.${(report.platformFixes ?? []).length ? ' The fixes below name their settings first.' : ''}</p>`;
}

export function robotsPatchSection(patch: RobotsPatch): SafeHtml {
  const rows = patch.agents.map((a) => html`<tr><th scope="row">${a.ua}</th><td>${a.edge === 'allows' ? 'lets it in' : 'turns it away'}</td><td>${robotsWord(a.before)} → ${robotsWord(a.after)}</td></tr>`);
  return html`<h2 id="robots-patch">A robots.txt that says what the site does</h2>
<p>${patch.reason} ${patch.unifiedDiff ? `This patch of the site's own robots.txt makes it say, for every ${patch.managed ? 'other ' : ''}agent whose answer was decided, what the edge does (checked with the same RFC 9309 matcher the verdicts use).` : 'No line of the site\'s own needs to change.'}</p>
${patch.unifiedDiff ? html`${unified(patch.unifiedDiff, 'Proposed robots.txt, unified diff: lines starting with + are added, with - removed')}
<div class="scroll" role="region" aria-label="Agents the patch changes" tabindex="0"><table>
<thead><tr><th scope="col">Agent</th><th scope="col">The edge</th><th scope="col">robots.txt, before → after</th></tr></thead>
<tbody>${rows}</tbody></table></div>` : ''}
${patch.managed ? html`<p><strong>Managed lines, left as served:</strong> ${patch.managed.text} <em>${patch.managed.setting}</em>. <a class="doc" href="${patch.managed.docUrl}" rel="noopener noreferrer">${shortUrl(patch.managed.docUrl)}</a></p>` : ''}
<p><strong>The other way:</strong> ${patch.edgeAlternative.text}${patch.edgeAlternative.docUrl ? html` <a class="doc" href="${patch.edgeAlternative.docUrl}" rel="noopener noreferrer">${shortUrl(patch.edgeAlternative.docUrl)}</a>` : ''}</p>`;
}
