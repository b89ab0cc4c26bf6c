// The pages a person meets through a watch's links: the confirmation and unsubscribe links of
// its mails (each a page with one button: opening a link changes nothing, since mail scanners
// open links; the button's POST does), what the button did, and the manage page (getWatch in
// a browser). Server-rendered on the report pages' layout and stylesheet, no script.
import { html, SafeHtml } from '../report/html.ts';
import { layout, utc } from '../report/page.ts';
import { domainInText } from '../report/domain-name.ts';
import { PAGE_CSP, PAGE_HEADERS } from '../report/styles.ts';
import type { WatchRow } from '../storage/queries/watches.ts';
import type { WatchBody } from './views.ts';

/** The report pages' headers, except that a form may post back to this service (the pages' one button). */
export const WATCH_PAGE_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  'Content-Security-Policy': PAGE_CSP.replace("form-action 'none'", "form-action 'self'"),
  'Cache-Control': 'no-store',
};

const every = (w: { every: string }) => (w.every === 'week' ? 'every week' : 'every day');

function form(action: string, label: string, fields: Record<string, string>, ariaLabel?: string): SafeHtml {
  const hidden = Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return html`<form method="post" action="${action}">${hidden}<button type="submit"${ariaLabel ? html` aria-label="${ariaLabel}"` : ''}>${label}</button></form>`;
}

export function confirmPage(w: WatchRow, action: string, manageUrl?: string): string {
  const domain = domainInText(w.domain);
  if (w.status === 'ended') return endedPage(w);
  if (w.status === 'active') return confirmedPage(w, manageUrl);
  return layout(`Start watching ${domain} · agent-readiness`, html`<h1>Start watching ${domain}?</h1>
<p>This watch rescans <strong>${domain}</strong> ${every(w)} and tells <strong>${w.lead_email}</strong> when its readiness for AI agents changes.</p>
<p>Nothing runs until you press the button. If you did not ask for this, close this page: nothing more will be sent.</p>
${form(action, 'Start watching', { confirm: 'yes' })}
<p class="muted small">What counts as a change is in <a href="/methodology.md">the methodology</a>.</p>`);
}

/**
 * After the mailbox confirmed: the manage page's link (its runs, deliveries, test and stop), and
 * the webhook's signing secret when the watch has one (the form's creator never saw it; whoever
 * holds the mail's link proved the mailbox).
 */
export function confirmedPage(w: WatchRow, manageUrl?: string, webhookSecret?: string): string {
  const domain = domainInText(w.domain);
  return layout(`Watching ${domain} · agent-readiness`, html`<h1>Watching ${domain}</h1>
<p>The watch is active. Its first scan, the baseline, runs now; after it, ${domain} is rescanned ${every(w)}, and <strong>${w.lead_email}</strong> hears from us only when something changed.</p>
${manageUrl ? html`<p><a href="${manageUrl}">Manage this watch</a>: its runs, its webhook deliveries, a test event, and the button that stops it. Keep this link private.</p>` : ''}
${webhookSecret ? html`<p>The webhook's deliveries are signed with this secret (<a href="/methodology.md">how to check a signature</a>): <code>${webhookSecret}</code></p>` : ''}
<p>Every mail of the watch has a link to stop it.</p>`);
}

export function endedPage(w: WatchRow): string {
  const domain = domainInText(w.domain);
  return layout(`Watch ended · agent-readiness`, html`<h1>This watch has ended</h1>
<p>${domain} is no longer watched${w.ended_at ? html` (since ${utc(w.ended_at)})` : ''}: no scan runs for it and no mail is sent about it.</p>
<p>Its reports stay at their links. To watch ${domain} again, create a new watch.</p>`);
}

export function unsubscribePage(w: WatchRow, action: string): string {
  const domain = domainInText(w.domain);
  if (w.status === 'ended') return endedPage(w);
  return layout(`Stop watching ${domain} · agent-readiness`, html`<h1>Stop watching ${domain}?</h1>
<p>This ends the watch of <strong>${domain}</strong>: no more scans, mails or webhooks for it.</p>
${form(action, 'Stop watching', { 'List-Unsubscribe': 'One-Click' })}`);
}

export function linkNotFoundPage(): string {
  return layout('Watch link not found · agent-readiness', html`<h1>This watch link does not work</h1>
<p>There is no watch with this id, or the link's token is not this watch's.</p>
<ul><li>Check that the link was copied completely from the mail: such links are long and easy to cut short.</li></ul>
<p>You can <a href="/">run a scan</a>; how watches work is in <a href="/methodology.md">the methodology</a>.</p>`);
}

/** What the manage page's last button did (getWatch's `done`, from a fixed list: nothing of the request is echoed). */
const NOTICES: Record<string, string> = {
  'test-queued': 'A test event is on its way to the webhook; its delivery shows below within seconds.',
  'test-too-soon': 'The webhook already had its test event this minute: try again in a minute.',
  'test-refused': 'No test event can go out: the watch is not active, or has no webhook.',
  redelivered: 'The delivery is on its way again, with the same event id (one attempt).',
  'redeliver-too-soon': 'That delivery was sent again less than a minute ago: try again in a minute.',
  'redeliver-refused': 'That delivery cannot be sent again now: it is still on its way, or the watch is not active.',
};

export interface ManageActions {
  /** The manage token the page was opened with (its buttons post it back); none when opened with a key. */
  token: string | null;
  done?: string;
}

export function managePage(b: WatchBody, a: ManageActions): string {
  const domain = domainInText(b.domain);
  const q = a.token ? `?token=${encodeURIComponent(a.token)}` : '';
  const base = `/watches/${b.watchId}`;
  const active = b.status === 'active';
  const runs = b.runs.map((r) => html`<tr><td>${r.period}${r.baseline ? ' (baseline)' : ''}</td><td>${utc(r.startedAt)}</td><td>${r.state}</td>
<td>${r.reportUrl ? html`<a href="${r.reportUrl}">${r.headline ?? 'report'}${r.score === null ? '' : `, ${r.score}`}</a>` : (r.error ?? '')}</td>
<td>${r.changes.length ? html`<ul>${r.changes.map((c) => html`<li>${c.text}</li>`)}</ul>${r.diffUrl ? html`<a href="${r.diffUrl}">What changed</a>` : ''}` : (r.diffUrl ? html`nothing that alerts (<a href="${r.diffUrl}">diff</a>)` : '')}${r.alertMail === 'capped' ? html`<p>The alert mail was not sent: this address had reached its mails for the day.</p>` : ''}</td></tr>`);
  const deliveries = b.deliveries.map((x) => html`<tr><td><code>${x.eventId}</code></td><td>${x.type}</td><td>${x.status}${x.redeliveries ? ` (sent again ${x.redeliveries}×)` : ''}</td><td>${x.attempts}</td><td>${x.nextAttemptAt ? utc(x.nextAttemptAt) : ''}</td><td>${x.lastStatusCode ?? ''} ${x.lastError ?? ''}</td>
<td>${active && x.status !== 'pending' && a.token ? form(`${base}/deliveries/${encodeURIComponent(x.eventId)}/redeliver${q}`, 'Redeliver', { from: 'page' }, `Redeliver ${x.eventId}`) : ''}</td></tr>`);
  const notice = a.done ? NOTICES[a.done] : undefined;
  return layout(`Watch of ${domain} · agent-readiness`, html`<h1>Watch of ${domain}</h1>
${notice ? html`<p role="status" class="notice">${notice}</p>` : ''}
<dl class="kv"><dt>Status</dt><dd>${b.status}</dd><dt>Runs</dt><dd>${b.every === 'week' ? 'every week' : 'every day'} (${b.periodSeconds} s)</dd>
<dt>Alerts</dt><dd>${b.notify.email ? 'mail' : ''}${b.notify.email && b.notify.webhookUrl ? ' and ' : ''}${b.notify.webhookUrl ? html`webhook <code>${b.notify.webhookUrl}</code>` : ''}; a score fall of ${b.threshold} or more counts</dd>
<dt>Created</dt><dd>${utc(b.createdAt)}</dd>${b.nextRunAt ? html`<dt>Next run</dt><dd>${utc(b.nextRunAt)}</dd>` : ''}${b.endedAt ? html`<dt>Ended</dt><dd>${utc(b.endedAt)}</dd>` : ''}</dl>
${b.status === 'pending-confirmation' ? html`<p>This watch waits for its confirmation: follow the link mailed to its address. Nothing runs and nothing is sent until then.</p>` : ''}
<h2>Runs</h2>
${b.runs.length ? html`<div class="scroll" tabindex="0" role="region" aria-label="Runs"><table><thead><tr><th scope="col">Period</th><th scope="col">Started</th><th scope="col">State</th><th scope="col">Report</th><th scope="col">Changes</th></tr></thead><tbody>${runs}</tbody></table></div>` : html`<p>No run yet.</p>`}
${b.notify.webhookUrl ? html`<h2 id="deliveries">Webhook deliveries</h2>
${active && a.token ? form(`${base}/test${q}`, 'Send a test event', { from: 'page' }) : ''}
${b.deliveries.length ? html`<div class="scroll" tabindex="0" role="region" aria-label="Webhook deliveries"><table><thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Last answer</th><th scope="col">Action</th></tr></thead><tbody>${deliveries}</tbody></table></div>` : html`<p>None yet.</p>`}` : ''}
${a.token && b.status !== 'ended' ? html`<h2>End the watch</h2>${form(`${base}/unsubscribe${q}`, 'Stop watching', { 'List-Unsubscribe': 'One-Click' })}` : ''}`);
}
