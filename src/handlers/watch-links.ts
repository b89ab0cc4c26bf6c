// What the mail-link operations (confirm, unsubscribe) share: the watch their token opens, and
// answers as a page for people (a mail's link, a form's button) or JSON for programs.
import type { Request, Response } from 'express';
import { AppError } from '../errors.ts';
import { preferredType } from '../http/negotiate.ts';
import type { WatchRow } from '../storage/queries/watches.ts';
import { linkNotFoundPage, WATCH_PAGE_HEADERS } from '../watches/pages.ts';
import type { HandlerContext } from './types.ts';
import { tokenOf } from './watch-auth.ts';

export function wantsJson(req: Request): boolean {
  return preferredType(req, ['text/html', 'application/json']) === 'application/json';
}

export function sendPage(res: Response, status: number, page: string): void {
  res.status(status).set(WATCH_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
}

/** The watch the link's token opens, or (answered here) the same 404 for an unknown watch and a wrong token. */
export async function linkedWatch(req: Request, res: Response, ctx: HandlerContext, manage: boolean): Promise<WatchRow | undefined> {
  res.vary('Accept');
  const w = await ctx.services.watches.byLink(String(req.params.watchId).toLowerCase(), tokenOf(req), manage);
  if (w) return w;
  if (wantsJson(req)) throw new AppError('NOT_FOUND', { error: 'No watch with this id, or the link\'s token is not this watch\'s.', hint: 'Copy the whole link from the mail.' });
  sendPage(res, 404, linkNotFoundPage());
  return undefined;
}

/** The link's own URL, for its page's button to post back to. */
export function selfAction(req: Request): string {
  return `${req.path}?token=${encodeURIComponent(tokenOf(req) ?? '')}`;
}
