// GET /keys/me: the key presenting itself and its budget today (what the partner console shows).
import { rateLimitHeaders } from '../keys/service.ts';
import type { Handler } from './types.ts';

export const getKey: Handler<'getKey'> = async (req, res, ctx) => {
  const { key, budget } = await ctx.services.console.whoami(req.get('authorization'));
  res.set(rateLimitHeaders(budget)).set('Cache-Control', 'no-store')
    .json({ keyId: key.keyId, name: key.name, budget: { limit: budget.limit, remaining: budget.remaining, resetSeconds: budget.resetS } });
};
