// GET /r/{scanId}/diff/{otherScanId}: what changed between two archived reports of one domain,
// as a page for people and as JSON for programs (the same negotiation as GET /r/{scanId}).
import { AppError } from '../errors.ts';
import { reportWants } from '../http/negotiate.ts';
import { sendBadIdPage } from '../http/pages.ts';
import { renderDiffPage, renderNotComparablePage } from '../report/diff-page.ts';
import { renderNotFoundPage } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import { compareArchived } from '../scans/compare.ts';
import type { Handler } from './types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const diffReports: Handler<'diffReports'> = async (req, res, ctx) => {
  const ids = [String(req.params.scanId ?? ''), String(req.params.otherScanId ?? '')] as const;
  const page = reportWants(req).site === 'html';
  res.vary('Accept');
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) {
    if (!page) throw new AppError('BAD_REQUEST', { error: 'The report id is not a valid id.' });
    sendBadIdPage(res, bad);
    return;
  }
  let diff;
  try {
    diff = await compareArchived(ctx.db, ctx.config.baseUrl, ids[0].toLowerCase(), ids[1].toLowerCase());
  } catch (err) {
    if (!page || !(err instanceof AppError) || (err.status !== 400 && err.status !== 404)) throw err;
    const body = err.status === 404 ? renderNotFoundPage(/[0-9a-f]{8}-[0-9a-f-]{27}/.exec(err.message)?.[0] ?? ids[0]) : renderNotComparablePage(err.message);
    res.status(err.status).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
    return;
  }
  // Two capability URLs: private caches only, as the reports themselves.
  res.set('Cache-Control', 'private, max-age=60');
  if (!page) {
    res.status(200).json(diff);
    return;
  }
  res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8').send(renderDiffPage(diff));
};
