// The report mail. Its id doubles as the Message-ID's local part, so if a mailer crashes
// after the SMTP server accepted a mail but before marking it sent, the resend carries the
// same Message-ID and receiving systems can recognise the duplicate.
import escapeHtml from 'escape-html';
import { domainInText } from '../report/domain-name.ts';
import type { OutboxMail } from '../storage/queries/archiveScan.ts';

export interface ReportMailFacts {
  scanId: string;
  domain: string;
  headline: string;
  scoreDisplay: string;
  reportUrl: string;
  to: string;
  leadName: string;
}

export function mailIdFor(scanId: string): string {
  return `report-${scanId}`;
}

export function messageIdFor(mailId: string, baseUrl: string): string {
  const host = new URL(baseUrl).hostname || 'agent-readiness.invalid';
  return `<${mailId}@${host}>`;
}

// Anyone can type any address and any name, so the name is the only text of theirs that
// would reach a stranger's inbox. A name carrying a link, a domain or markup would turn our
// mail into their advert or phishing lure: greet without it.
const LINKISH = /[a-z][a-z0-9+.-]*:\/\/|www\.|[<>{}\[\]\\`|@]|&[#a-z0-9]+;|\b[a-z0-9-]{1,63}\.(?:[a-z]{2,24})\b/i;

/** The name to greet, or '' when it carries a URL, a domain, an address or markup. */
export function greetableName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  return clean === '' || LINKISH.test(clean) ? '' : clean;
}

export function composeReportMail(f: ReportMailFacts): OutboxMail {
  const name = greetableName(f.leadName);
  const greeting = name ? `Hello ${name},` : 'Hello,';
  // An internationalised domain as its owner writes it, its DNS spelling beside it (domain-name.ts).
  const domain = domainInText(f.domain);
  const subject = `Agent-readiness report for ${domain}: ${f.headline}, score ${f.scoreDisplay}`;
  const text = [
    greeting,
    '',
    `Your agent-readiness scan of ${domain} is archived.`,
    '',
    `Headline: ${f.headline}`,
    `Score: ${f.scoreDisplay}`,
    '',
    `Report: ${f.reportUrl}`,
    '',
    'The link is read-only; anyone holding it can read the report.',
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body>
<p>${escapeHtml(greeting)}</p>
<p>Your agent-readiness scan of <strong>${escapeHtml(domain)}</strong> is archived.</p>
<ul><li>Headline: ${escapeHtml(f.headline)}</li><li>Score: ${escapeHtml(f.scoreDisplay)}</li></ul>
<p><a href="${escapeHtml(f.reportUrl)}">Open the report</a> (${escapeHtml(f.reportUrl)})</p>
<p>The link is read-only; anyone holding it can read the report.</p>
</body></html>`;
  return { id: mailIdFor(f.scanId), to_addr: f.to, subject: subject.slice(0, 300), text_body: text, html_body: html };
}
