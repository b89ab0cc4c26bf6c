// GET /batches/{batchId}/shared/{linkToken}: the batch summary for whoever holds the link, with no header.
import { summaryPage } from '../batches/page.ts';
import { gridSection } from '../batches/summarize.ts';
import { preferredType } from '../http/negotiate.ts';
import { STYLE_HASH } from '../report/styles.ts';
import { sharedBatch, sharedPath } from './shared-batch.ts';
import type { Handler } from './types.ts';

export const getSharedBatchSummary: Handler<'getSharedBatchSummary'> = async (req, res, ctx) => {
  const row = await sharedBatch(req, res, ctx);
  if (!row) return;
  const body = await ctx.services.batches.summary(row);
  if (preferredType(req, ['application/json', 'text/html']) === 'text/html') {
    const self = sharedPath(row, String(req.params.linkToken));
    const grid = await gridSection(ctx.db, row, body.agents.map((a) => a.ua), Number(req.query.page ?? 1), self);
    res.set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
      .type('text/html; charset=utf-8').send(summaryPage(body, row.label, { results: `${self}/results`, csv: `${self}/results?format=csv`, ndjson: `${self}/results?format=ndjson` }, grid));
    return;
  }
  res.json(body);
};
