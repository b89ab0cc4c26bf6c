// GET /watches/{watchId}: the watch, its runs and its last deliveries; a page for browsers.
import { wantsPage } from '../http/pages.ts';
import { managePage, WATCH_PAGE_HEADERS } from '../watches/pages.ts';
import { watchBody } from '../watches/views.ts';
import { authorizedWatch, tokenOf } from './watch-auth.ts';
import type { Handler } from './types.ts';

export const getWatch: Handler<'getWatch'> = async (req, res, ctx) => {
  res.vary('Accept');
  const w = await authorizedWatch(req, ctx);
  const body = await watchBody(ctx.services.watches, w, ctx.config.watchIntervalS);
  if (wantsPage(req)) {
    // The page's buttons post back to testWatch, redeliverWebhook and unsubscribeWatch, which all take the manage token.
    const done = typeof req.query.done === 'string' ? req.query.done : undefined;
    res.status(200).set(WATCH_PAGE_HEADERS).type('text/html; charset=utf-8').send(managePage(body, { token: tokenOf(req) ?? null, ...(done ? { done } : {}) }));
    return;
  }
  res.set('Cache-Control', 'no-store').json(body);
};
