// GET /watches/{watchId}/unsubscribe: the mails' unsubscribe link; a page whose button ends the watch.
import { unsubscribePage } from '../watches/pages.ts';
import { linkedWatch, selfAction, sendPage } from './watch-links.ts';
import type { Handler } from './types.ts';

export const getWatchUnsubscribe: Handler<'getWatchUnsubscribe'> = async (req, res, ctx) => {
  const w = await linkedWatch(req, res, ctx, true);
  if (w) sendPage(res, 200, unsubscribePage(w, selfAction(req)));
};
