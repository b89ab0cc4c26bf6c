// POST /watches/{watchId}/unsubscribe: RFC 8058 one-click unsubscribe (and the pages' button).
import { endedPage } from '../watches/pages.ts';
import { linkedWatch, sendPage, wantsJson } from './watch-links.ts';
import type { Handler } from './types.ts';

export const unsubscribeWatch: Handler<'unsubscribeWatch'> = async (req, res, ctx) => {
  const w = await linkedWatch(req, res, ctx, true);
  if (!w) return;
  const ended = await ctx.services.watches.end(w, 'unsubscribed');
  if (wantsJson(req)) res.set('Cache-Control', 'no-store').json({ watchId: ended.id, status: ended.status });
  else sendPage(res, 200, endedPage(ended));
};
