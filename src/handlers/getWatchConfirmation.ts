// GET /watches/{watchId}/confirm: the mail's confirmation link; a page whose button confirms.
import { confirmPage } from '../watches/pages.ts';
import { linkedWatch, selfAction, sendPage } from './watch-links.ts';
import type { Handler } from './types.ts';

export const getWatchConfirmation: Handler<'getWatchConfirmation'> = async (req, res, ctx) => {
  const w = await linkedWatch(req, res, ctx, false);
  if (!w) return;
  // Already confirmed: the page links the manage page (the mail's link proved the mailbox).
  const manage = w.status === 'active' ? new URL((await ctx.services.watches.links(w.id)).manage) : undefined;
  sendPage(res, 200, confirmPage(w, selfAction(req), manage ? manage.pathname + manage.search : undefined));
};
