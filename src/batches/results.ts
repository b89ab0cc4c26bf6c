// A batch's results as text chunks, page by page from storage (never the whole batch in
// memory), as NDJSON or CSV (csv-stringify does the quoting). The handler pipes them to the
// response with stream.pipeline, so a client that disconnects, even while the response is
// backpressured, ends the generator (its finally runs) and nothing is held for it.
import type { Knex } from 'knex';
import { stringify } from 'csv-stringify/sync';
import { pageItems } from '../storage/queries/batches.ts';
import { RESULT_COLUMNS, resultRow } from './views.ts';

const PAGE = 500;

export async function* resultChunks(db: Knex, batchId: string, csv: boolean, baseUrl: string): AsyncGenerator<string> {
  let after = -1;
  let first = true;
  for (;;) {
    const items = await pageItems(db, batchId, after, PAGE);
    const rows = items.map((i) => resultRow(i, baseUrl));
    let chunk = csv
      ? stringify(rows, { header: first, columns: [...RESULT_COLUMNS], cast: { boolean: String } })
      : rows.map((r) => `${JSON.stringify(r)}\n`).join('');
    if (first && csv && rows.length === 0) chunk = `${RESULT_COLUMNS.join(',')}\n`;
    first = false;
    if (chunk) yield chunk;
    if (items.length < PAGE) return;
    after = items.at(-1)!.seq;
  }
}
