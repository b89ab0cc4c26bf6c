// POST /watches/{watchId}/test: a signed readiness.test event to the watch's webhook (from the
// manage page's button: a 303 back to it).
import { pageAware } from './page-action.ts';
import { authorizedWatch } from './watch-auth.ts';
import type { Handler } from './types.ts';

export const testWatch: Handler<'testWatch'> = async (req, res, ctx) => {
  const w = await authorizedWatch(req, ctx);
  await pageAware(req, res, { ok: 'test-queued', 409: 'test-refused', 429: 'test-too-soon' }, async () => {
    const { eventId } = await ctx.services.watches.test(w);
    return () => res.status(202).set('Cache-Control', 'no-store').json({ eventId, type: 'readiness.test' });
  });
};
