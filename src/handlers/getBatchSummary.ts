// GET /batches/{batchId}/summary: the aggregates, folded page by page; a page with charts for browsers.
import { summaryPage } from '../batches/page.ts';
import { gridSection } from '../batches/summarize.ts';
import { preferredType } from '../http/negotiate.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import { STYLE_HASH } from '../report/styles.ts';
import type { Handler } from './types.ts';

export const getBatchSummary: Handler<'getBatchSummary'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const row = await batches.find(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  const body = await ctx.services.batches.summary(row);
  res.set({ 'Cache-Control': 'no-store', Vary: 'Accept' });
  if (preferredType(req, ['application/json', 'text/html']) === 'text/html') {
    const grid = await gridSection(ctx.db, row, body.agents.map((a) => a.ua), Number(req.query.page ?? 1), `/batches/${row.id}/summary`);
    res.set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
      .type('text/html; charset=utf-8').send(summaryPage(body, row.label, undefined, grid));
    return;
  }
  res.json(body);
};
