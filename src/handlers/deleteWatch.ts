// DELETE /watches/{watchId}: ends the watch; its archived reports stay.
import { watchBody } from '../watches/views.ts';
import { authorizedWatch } from './watch-auth.ts';
import type { Handler } from './types.ts';

export const deleteWatch: Handler<'deleteWatch'> = async (req, res, ctx) => {
  const ended = await ctx.services.watches.end(await authorizedWatch(req, ctx), 'deleted');
  res.set('Cache-Control', 'no-store').json(await watchBody(ctx.services.watches, ended, ctx.config.watchIntervalS));
};
