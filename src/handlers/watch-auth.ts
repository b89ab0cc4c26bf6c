// What the manage operations (getWatch, deleteWatch, testWatch) share: the watch the request
// may act on, by the manage token of manageUrl (?token=) or the key that created it.
import type { Request } from 'express';
import type { WatchRow } from '../storage/queries/watches.ts';
import type { HandlerContext } from './types.ts';

export function tokenOf(req: Request): string | undefined {
  return typeof req.query.token === 'string' ? req.query.token : undefined;
}

export function authorizedWatch(req: Request, ctx: HandlerContext): Promise<WatchRow> {
  return ctx.services.watches.authorize(String(req.params.watchId).toLowerCase(), tokenOf(req), req.get('authorization'));
}
