// GET /batches/{batchId}/results: one row per domain, streamed page by page from storage
// (never the whole batch in memory), as NDJSON or CSV (csv-stringify does the quoting).
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { RESULT_COLUMNS, resultRow } from '../batches/views.ts';
import { preferredType } from '../http/negotiate.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import { pageItems } from '../storage/queries/batches.ts';
import type { Handler } from './types.ts';

const PAGE = 500;

export const getBatchResults: Handler<'getBatchResults'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const row = await batches.find(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  const format = req.query.format ?? (preferredType(req, ['application/x-ndjson', 'text/csv']) === 'text/csv' ? 'csv' : 'ndjson');
  const csv = format === 'csv';
  res.status(200).set({ 'Content-Type': csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', Vary: 'Accept' });
  let after = -1;
  let first = true;
  for (;;) {
    const items = await pageItems(ctx.db, row.id, after, PAGE);
    const rows = items.map((i) => resultRow(i, ctx.config.baseUrl));
    let chunk = csv
      ? stringify(rows, { header: first, columns: [...RESULT_COLUMNS], cast: { boolean: String } })
      : rows.map((r) => `${JSON.stringify(r)}\n`).join('');
    if (first && csv && rows.length === 0) chunk = `${RESULT_COLUMNS.join(',')}\n`;
    first = false;
    if (chunk && !res.write(chunk)) await once(res, 'drain');
    if (items.length < PAGE) break;
    after = items.at(-1)!.seq;
  }
  res.end();
};
