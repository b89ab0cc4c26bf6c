// A batch's summary, folded from its items page by page (never all rows in memory): what
// getBatchSummary and the capability link's page (getSharedBatchSummary) both answer.
import type { Knex } from 'knex';
import { pageItems, type BatchRow } from '../storage/queries/batches.ts';
import { countDone, gridRows } from '../storage/queries/batchGrid.ts';
import type { SafeHtml } from '../report/html.ts';
import { GRID_PAGE, portfolioGrid } from './grid-page.ts';
import { SummaryBuilder, type ItemFacts } from './summary.ts';
import { summaryBody } from './views.ts';

export async function summarize(db: Knex, row: BatchRow): Promise<ReturnType<typeof summaryBody>> {
  const builder = new SummaryBuilder();
  for (let after = -1; ;) {
    const items = await pageItems(db, row.id, after, 1000);
    for (const i of items) {
      if (i.state === 'done' && i.headline && i.facts) builder.add({ headline: i.headline, score: i.score, facts: JSON.parse(i.facts) as ItemFacts });
    }
    if (items.length < 1000) break;
    after = items.at(-1)!.seq;
  }
  return summaryBody(row, builder.build());
}

/** One page (1-based) of the summary page's portfolio grid; `path` is the summary page's own path. */
export async function gridSection(db: Knex, row: BatchRow, agents: readonly string[], asked: number, path: string): Promise<SafeHtml> {
  // The contract admits whole numbers from 1 only; anything else that got this far reads as page 1.
  const page = Number.isSafeInteger(asked) && asked >= 1 ? asked : 1;
  const [rows, total] = await Promise.all([gridRows(db, row.id, (page - 1) * GRID_PAGE, GRID_PAGE), countDone(db, row.id)]);
  return portfolioGrid({ agents, rows, page, total, href: (n) => `${path}?page=${n}` });
}
