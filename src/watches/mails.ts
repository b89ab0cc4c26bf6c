// A watch's only mails: its confirmation (double opt-in) and its change alerts. Each carries
// List-Unsubscribe with its one-click URL and List-Unsubscribe-Post (RFC 8058), so a mail
// client's unsubscribe button ends the watch. Their ids are the outbox's idempotence keys
// (and the Message-ID's local part): one confirmation per watch, one alert per (watch, period).
import escapeHtml from 'escape-html';
import { greetableName } from '../mail/compose.ts';
import { domainInText } from '../report/domain-name.ts';
import type { OutboxMail } from '../storage/queries/archiveScan.ts';
import type { WatchChange } from './alerts.ts';

export interface WatchMailFacts {
  watchId: string;
  domain: string;
  to: string;
  leadName: string;
  every: 'day' | 'week';
  unsubscribeUrl: string;
}

function headers(unsubscribeUrl: string): string {
  return JSON.stringify({ 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
}

function greeting(leadName: string): string {
  const name = greetableName(leadName);
  return name ? `Hello ${name},` : 'Hello,';
}

const a = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

export function confirmationMail(f: WatchMailFacts & { confirmUrl: string }): OutboxMail {
  const domain = domainInText(f.domain);
  const text = [
    greeting(f.leadName), '',
    `Someone (we hope you) asked agent-readiness to watch ${domain} and to tell this address when its readiness for AI agents changes, rescanning it every ${f.every}.`,
    '', `To start the watch, open this link and press "Start watching":`, f.confirmUrl, '',
    'Nothing runs and nothing more is sent until you do. If you did not ask for this, ignore this mail.',
    '', `Never mail me about this watch: ${f.unsubscribeUrl}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body>
<p>${escapeHtml(greeting(f.leadName))}</p>
<p>Someone (we hope you) asked agent-readiness to watch <strong>${escapeHtml(domain)}</strong> and to tell this address when its readiness for AI agents changes, rescanning it every ${escapeHtml(f.every)}.</p>
<p>${a(f.confirmUrl, 'Start watching')} (${escapeHtml(f.confirmUrl)})</p>
<p>Nothing runs and nothing more is sent until you do. If you did not ask for this, ignore this mail.</p>
<p>${a(f.unsubscribeUrl, 'Never mail me about this watch')}</p>
</body></html>`;
  return { id: `watch-confirm-${f.watchId}`, to_addr: f.to, subject: `Confirm: watch ${domain} for changes`.slice(0, 300), text_body: text, html_body: html, headers: headers(f.unsubscribeUrl) };
}

export interface AlertFacts extends WatchMailFacts {
  period: number;
  changes: readonly WatchChange[];
  /** Every sentence of the diff, for the whole picture below the changes that alerted. */
  summary: readonly string[];
  fromUrl: string;
  toUrl: string;
  diffUrl: string;
}

export function alertMail(f: AlertFacts): OutboxMail {
  const domain = domainInText(f.domain);
  const more = f.summary.filter((s) => !f.changes.some((c) => c.text === s));
  const text = [
    greeting(f.leadName), '',
    `${domain} changed since the watch's previous scan:`, '',
    ...f.changes.map((c) => `- ${c.text}`),
    ...(more.length ? ['', 'Also different:', ...more.map((s) => `- ${s}`)] : []),
    '', `What changed, side by side: ${f.diffUrl}`, `The previous report: ${f.fromUrl}`, `The new report: ${f.toUrl}`,
    '', `The watch rescans every ${f.every}. Stop watching: ${f.unsubscribeUrl}`,
  ].join('\n');
  const li = (items: readonly string[]) => `<ul>${items.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`;
  const html = `<!doctype html><html lang="en"><body>
<p>${escapeHtml(greeting(f.leadName))}</p>
<p><strong>${escapeHtml(domain)}</strong> changed since the watch's previous scan:</p>
${li(f.changes.map((c) => c.text))}
${more.length ? `<p>Also different:</p>${li(more)}` : ''}
<p>${a(f.diffUrl, 'What changed, side by side')} · ${a(f.fromUrl, 'the previous report')} · ${a(f.toUrl, 'the new report')}</p>
<p>The watch rescans every ${escapeHtml(f.every)}. ${a(f.unsubscribeUrl, 'Stop watching')}</p>
</body></html>`;
  return { id: `watch-alert-${f.watchId}.${f.period}`, to_addr: f.to, subject: `${domain} changed: ${f.changes[0]?.text ?? ''}`.slice(0, 300), text_body: text, html_body: html, headers: headers(f.unsubscribeUrl) };
}
