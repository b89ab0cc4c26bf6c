// POST /batches/{batchId}/links: new capability links for the batch; the old ones stop opening at once.
import { rateLimitHeaders } from '../keys/service.ts';
import type { Handler } from './types.ts';

export const rotateBatchLinks: Handler<'rotateBatchLinks'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const links = await batches.rotateLinks(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  res.set('Cache-Control', 'no-store').json(links);
};
