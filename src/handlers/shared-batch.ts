// What the two capability-link operations (getSharedBatchSummary, getSharedBatchResults) share:
// the batch their token opens, the headers every answer carries (never indexed, never leaking
// the token through a Referer), and one 404 page for people whatever was wrong with the link.
import type { Request, Response } from 'express';
import { AppError } from '../errors.ts';
import { wantsPage } from '../http/pages.ts';
import { html } from '../report/html.ts';
import { layout } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import type { BatchRow } from '../storage/queries/batches.ts';
import type { HandlerContext } from './types.ts';

export const SHARED_HEADERS = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'private, no-store', Vary: 'Accept' };

/** The batch the link opens, or undefined once a 404 (a page for browsers) has been sent. */
export async function sharedBatch(req: Request, res: Response, ctx: HandlerContext): Promise<BatchRow | undefined> {
  res.set(SHARED_HEADERS);
  try {
    return await ctx.services.batches.shared(String(req.params.batchId).toLowerCase(), String(req.params.linkToken));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 404 || !wantsPage(req)) throw err;
    res.status(404).set(PAGE_HEADERS).set(SHARED_HEADERS).type('text/html; charset=utf-8').send(layout('Link not valid · agent-readiness', html`<h1>This link does not open a batch</h1>
<p>The link may have been rotated, or the key it belongs to revoked. Ask whoever sent it for a new one.</p>
<p>Partners find their batches' current links in the answer of <code>GET /batches/{batchId}</code>.</p>`));
    return undefined;
  }
}

/** The path (no origin, no query) the capability pages link to each other by. */
export function sharedPath(row: BatchRow, token: string): string {
  return `/batches/${row.id}/shared/${encodeURIComponent(token)}`;
}
