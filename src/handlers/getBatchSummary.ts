// GET /batches/{batchId}/summary: the aggregates, folded page by page; a page with charts for browsers.
import { summaryPage } from '../batches/page.ts';
import { SummaryBuilder, type ItemFacts } from '../batches/summary.ts';
import { summaryBody } from '../batches/views.ts';
import { preferredType } from '../http/negotiate.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import { STYLE_HASH } from '../report/styles.ts';
import { pageItems } from '../storage/queries/batches.ts';
import type { Handler } from './types.ts';

export const getBatchSummary: Handler<'getBatchSummary'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const row = await batches.find(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  const builder = new SummaryBuilder();
  for (let after = -1; ;) {
    const items = await pageItems(ctx.db, row.id, after, 1000);
    for (const i of items) {
      if (i.state === 'done' && i.headline && i.facts) builder.add({ headline: i.headline, score: i.score, facts: JSON.parse(i.facts) as ItemFacts });
    }
    if (items.length < 1000) break;
    after = items.at(-1)!.seq;
  }
  const body = summaryBody(row, builder.build());
  res.set({ 'Cache-Control': 'no-store', Vary: 'Accept' });
  if (preferredType(req, ['application/json', 'text/html']) === 'text/html') {
    res.set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
      .type('text/html; charset=utf-8').send(summaryPage(body, row.label));
    return;
  }
  res.json(body);
};
