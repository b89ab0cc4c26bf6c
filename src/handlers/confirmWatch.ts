// POST /watches/{watchId}/confirm: the confirmation page's button; the watch becomes active.
import { AppError } from '../errors.ts';
import { confirmedPage, endedPage } from '../watches/pages.ts';
import { linkedWatch, sendPage, wantsJson } from './watch-links.ts';
import type { Handler } from './types.ts';

export const confirmWatch: Handler<'confirmWatch'> = async (req, res, ctx) => {
  const w = await linkedWatch(req, res, ctx, false);
  if (!w) return;
  try {
    const active = await ctx.services.watches.confirm(w);
    if (wantsJson(req)) res.json({ watchId: active.id, status: active.status });
    else {
      const links = await ctx.services.watches.links(active.id);
      const secret = active.webhook_url ? await ctx.services.webhookSecret(active.id, active.secret_version) : undefined;
      // Same origin: a path, so the page works whatever host it was reached by.
      const manage = new URL(links.manage);
      sendPage(res, 200, confirmedPage(active, manage.pathname + manage.search, secret));
    }
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'GONE') || wantsJson(req)) throw err;
    sendPage(res, 410, endedPage(w));
  }
};
