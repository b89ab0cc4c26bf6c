// POST /r/{scanId}/cli-vantage. The app reads the body with this operation's 64 KB wire
// limit before the handler runs; everything past that is the attach rules of the spec.
import { attachCliVantage as attach } from '../scans/cli-vantage.ts';
import { forgetReportPage } from '../report/page-cache.ts';
import type { Handler } from './types.ts';

export const attachCliVantage: Handler<'attachCliVantage'> = async (req, res, ctx) => {
  const result = await attach({ db: ctx.db, now: () => ctx.now(), baseUrl: ctx.config.baseUrl }, req.params.scanId, req.body);
  // The page now shows the user's vantage: drop this instance's rendered copy.
  forgetReportPage(ctx.db, String(req.params.scanId));
  res.status(200).json(result);
};
