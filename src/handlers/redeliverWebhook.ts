// POST /watches/{watchId}/deliveries/{eventId}/redeliver: a finished delivery sent again, same
// event id, one attempt (from the manage page's button: a 303 back to it).
import { pageAware } from './page-action.ts';
import { authorizedWatch } from './watch-auth.ts';
import type { Handler } from './types.ts';

export const redeliverWebhook: Handler<'redeliverWebhook'> = async (req, res, ctx) => {
  const w = await authorizedWatch(req, ctx);
  await pageAware(req, res, { ok: 'redelivered', 409: 'redeliver-refused', 429: 'redeliver-too-soon' }, async () => {
    const queued = await ctx.services.watches.redeliver(w, String(req.params.eventId));
    return () => res.status(202).set('Cache-Control', 'no-store').json(queued);
  });
};
