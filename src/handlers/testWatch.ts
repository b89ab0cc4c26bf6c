// POST /watches/{watchId}/test: a signed readiness.test event to the watch's webhook.
import { authorizedWatch } from './watch-auth.ts';
import type { Handler } from './types.ts';

export const testWatch: Handler<'testWatch'> = async (req, res, ctx) => {
  const { eventId } = await ctx.services.watches.test(await authorizedWatch(req, ctx));
  res.status(202).set('Cache-Control', 'no-store').json({ eventId, type: 'readiness.test' });
};
