// POST /r/{scanId}/cli-vantage. The app reads the body with this operation's 64 KB wire
// limit before the handler runs; everything past that is the attach rules of the spec.
import type { Handler } from './types.ts';

export const attachCliVantage: Handler<'attachCliVantage'> = async (req, res, ctx) => {
  // The service drops this instance's rendered copy of the page it changes.
  const result = await ctx.services.attachCliVantage(req.params.scanId, req.body);
  res.status(200).json(result);
};
