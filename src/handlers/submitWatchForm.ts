// POST /r/{scanId}/watch: the report page's "Watch this site" form. The watch is createWatch's
// without a key (src/watches/service.ts: double opt-in, the per-IP budget, the gate), for the
// report's own domain; this only maps the form in and a page (or, for the page's script, JSON)
// out. Nothing of what was typed is echoed except through the escaping page template.
import { AppError, errors } from '../errors.ts';
import { preferredType } from '../http/negotiate.ts';
import { html } from '../report/html.ts';
import { layout } from '../report/page.ts';
import { domainInText } from '../report/domain-name.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import { findScan } from '../storage/queries/findScan.ts';
import type { Handler } from './types.ts';

const TITLES: Record<number, string> = { 400: 'Please check the form', 403: 'This site cannot be watched', 404: 'No report to watch', 429: 'Too many requests for now', 503: 'The watch could not be stored' };

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

export const submitWatchForm: Handler<'submitWatchForm'> = async (req, res, ctx) => {
  const scanId = String(req.params.scanId).toLowerCase();
  const json = preferredType(req, ['text/html', 'application/json']) === 'application/json';
  const back = `/r/${scanId}#watch`;
  try {
    const row = await findScan(ctx.db, scanId);
    if (!row || row.kind !== 'site') throw errors.notFound('No archived site report with this id.', 'Only an archived report of a public site has a watch form.');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const every = text(body.every) ?? 'week';
    if (every !== 'week' && every !== 'day') throw errors.badRequest('How often must be every week or every day.');
    const thresholdText = text(body.threshold);
    const threshold = thresholdText === undefined ? undefined : Number(thresholdText);
    if (threshold !== undefined && !(Number.isInteger(threshold) && threshold >= 1 && threshold <= 100)) throw errors.badRequest('The score fall that alerts must be a whole number of points from 1 to 100.');
    const webhookUrl = text(body.webhookUrl);
    const created = await ctx.services.watches.create(undefined, {
      domain: row.domain,
      lead: { name: text(body.name), email: text(body.email) },
      every,
      notify: { email: true, ...(webhookUrl ? { webhookUrl } : {}) },
      ...(threshold !== undefined ? { threshold } : {}),
      turnstileToken: body['cf-turnstile-response'],
    }, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    res.set('Cache-Control', 'no-store');
    if (json) {
      res.status(200).json({ status: 'pending-confirmation', note: created.note });
      return;
    }
    const domain = domainInText(row.domain);
    res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8').send(layout(`Check your mail · agent-readiness`, html`<h1>Check your mail</h1>
<p>We sent a confirmation link to the address you gave. The watch of <strong>${domain}</strong> starts only when you follow it; if you do nothing, nothing more is sent and the request is deleted in a few days.</p>
<p><a href="/r/${scanId}">Back to the report</a></p>`));
  } catch (err) {
    if (!(err instanceof AppError) || !TITLES[err.status]) throw err;
    if (json) throw err;
    const b = err.body;
    // The field names of the API, as the form labels them.
    const words = (t: string) => t.replace(/`lead\.name`/g, 'Your name').replace(/`lead\.email`/g, 'Email').replace(/`notify\.webhookUrl`/g, 'Webhook URL').replace(/ in `lead`\./g, '.');
    res.set(err.headers ?? {}).status(err.status).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8')
      .send(layout(`${TITLES[err.status]} · agent-readiness`, html`<h1>${TITLES[err.status]!}</h1>
<p>${words(b.detail ? `${b.error} ${b.detail}` : b.error)}</p>${b.hint ? html`<p>${words(b.hint)}</p>` : ''}
<p><a href="${back}">Back to the form</a></p>`));
  }
};
