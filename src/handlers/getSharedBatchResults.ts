// GET /batches/{batchId}/shared/{linkToken}/results: the results table, a page at a time, or
// every row as CSV or NDJSON, for whoever holds the link.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resultsPage, ROWS_PER_PAGE } from '../batches/results-page.ts';
import { resultRow } from '../batches/views.ts';
import { errors } from '../errors.ts';
import { STYLE_HASH } from '../report/styles.ts';
import { pageItems } from '../storage/queries/batches.ts';
import { sharedBatch, sharedPath } from './shared-batch.ts';
import type { Handler } from './types.ts';

export const getSharedBatchResults: Handler<'getSharedBatchResults'> = async (req, res, ctx) => {
  const row = await sharedBatch(req, res, ctx);
  if (!row) return;
  const format = req.query.format ?? 'html';
  if (format === 'csv' || format === 'ndjson') {
    const csv = format === 'csv';
    res.status(200).set({
      'Content-Type': csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="batch-${row.id}.${csv ? 'csv' : 'ndjson'}"`,
    });
    try {
      await pipeline(Readable.from(ctx.services.batches.results(row.id, csv)), res);
    } catch (err) {
      // The client went away mid-download: nothing to answer.
      if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || res.destroyed) return;
      throw err;
    }
    return;
  }
  const pages = Math.max(1, Math.ceil(row.total / ROWS_PER_PAGE));
  const page = Number(req.query.page ?? 1);
  if (page > pages) throw errors.badRequest(`This batch has ${pages} page${pages === 1 ? '' : 's'} of results; page ${page} does not exist.`, `Ask for a page from 1 to ${pages}.`);
  // Items are numbered 0 … total−1 in submission order, so a page starts right after its predecessor's last seq.
  const items = await pageItems(ctx.db, row.id, (page - 1) * ROWS_PER_PAGE - 1, ROWS_PER_PAGE);
  const self = sharedPath(row, String(req.params.linkToken));
  res.set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
    .type('text/html; charset=utf-8')
    .send(resultsPage({ label: row.label, status: row.status, total: row.total, page, pages, rows: items.map((i) => resultRow(i, ctx.config.baseUrl)), self: `${self}/results`, summary: self }));
};
