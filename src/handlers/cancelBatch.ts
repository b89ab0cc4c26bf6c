// DELETE /batches/{batchId}: what has not started is cancelled; what is running finishes.
import { batchBody } from '../batches/views.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import type { Handler } from './types.ts';

export const cancelBatch: Handler<'cancelBatch'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const view = await batches.cancel(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  res.set('Cache-Control', 'no-store').json(batchBody(view.row, view, await batches.links(view.row), ctx.now().getTime()));
};
