// POST /r/{scanId}/cli-vantage. The app reads the body with this operation's 64 KB wire
// limit before the handler runs; everything past that is the attach rules of the spec.
import { attachCliVantage as attach } from '../scans/cli-vantage.ts';
import type { Handler } from './types.ts';

export const attachCliVantage: Handler<'attachCliVantage'> = async (req, res, ctx) => {
  const result = await attach({ db: ctx.db, now: () => ctx.now(), baseUrl: ctx.config.baseUrl }, req.params.scanId, req.body);
  res.status(200).json(result);
};
