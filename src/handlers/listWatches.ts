// GET /watches: the watches created with the key, newest first, a page at a time (the partner console's list).
import { DEFAULT_LIMIT } from '../console/service.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import type { Handler } from './types.ts';

export const listWatches: Handler<'listWatches'> = async (req, res, ctx) => {
  const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
  const limit = req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit);
  const { budget, page } = await ctx.services.console.watches(req.get('authorization'), cursor, limit);
  res.set(rateLimitHeaders(budget)).set('Cache-Control', 'no-store').json(page);
};
