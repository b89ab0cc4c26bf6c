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
    const token = tokenOf(req);
    // The page's button ends the watch through the unsubscribe operation, which takes the manage token too.
    const end = token ? `/watches/${w.id}/unsubscribe?token=${encodeURIComponent(token)}` : null;
    res.status(200).set(WATCH_PAGE_HEADERS).type('text/html; charset=utf-8').send(managePage(body, end));
    return;
  }
  res.set('Cache-Control', 'no-store').json(body);
};
