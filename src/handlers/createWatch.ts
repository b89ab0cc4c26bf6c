// POST /watches: a watch of a domain; pending confirmation without a key, active with one.
import { rateLimitHeaders } from '../keys/service.ts';
import type { WatchInput } from '../watches/service.ts';
import type { Handler } from './types.ts';

export const createWatch: Handler<'createWatch'> = async (req, res, ctx) => {
  const { watches } = ctx.services;
  // req.ip honours TRUST_PROXY, as POST /scan reads it: an unkeyed watch spends that address's budget.
  const created = await watches.create(req.get('authorization'), (req.body ?? {}) as WatchInput, req.ip ?? req.socket.remoteAddress ?? 'unknown');
  if (created.budget) res.set(rateLimitHeaders(created.budget));
  res.status(202).set({ Location: `${ctx.config.baseUrl}/watches/${created.watchId}`, 'Cache-Control': 'no-store' }).json({
    watchId: created.watchId, status: created.status, manageUrl: created.manageUrl,
    ...(created.webhookSecret ? { webhookSecret: created.webhookSecret } : {}), note: created.note,
  });
};
