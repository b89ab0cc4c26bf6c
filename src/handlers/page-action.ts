// The manage page's buttons (test, redeliver) post plain forms to the same operations programs
// call, with `from=page`: the answer is then a 303 back to the page, whose `done` names what
// happened from a fixed list, so a page never echoes a request's text.
import type { Request, Response } from 'express';
import type { components } from '../../generated/api-types.ts';
import { AppError } from '../errors.ts';
import { tokenOf } from './watch-auth.ts';

type Notice = components['schemas']['PageNotice'];

export function fromPage(req: Request): boolean {
  return (req.body as { from?: unknown } | undefined)?.from === 'page';
}

/** Runs `act`; from the page, a 303 to the manage page with its notice (a 4xx of `act` picks the refusal's notice instead of an Error body). */
export async function pageAware(req: Request, res: Response, notices: { ok: Notice; 409: Notice; 429: Notice }, act: () => Promise<() => void>): Promise<void> {
  if (!fromPage(req)) {
    (await act())();
    return;
  }
  let done: Notice = notices.ok;
  try {
    await act();
  } catch (err) {
    if (!(err instanceof AppError) || (err.status !== 409 && err.status !== 429)) throw err;
    done = err.status === 409 ? notices[409] : notices[429];
  }
  const token = tokenOf(req);
  const q = new URLSearchParams({ ...(token ? { token } : {}), done });
  res.status(303).set('Cache-Control', 'no-store').location(`/watches/${String(req.params.watchId).toLowerCase()}?${q}#deliveries`).end();
}
