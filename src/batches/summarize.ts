// A batch's summary, folded from its items page by page (never all rows in memory): what
// getBatchSummary and the capability link's page (getSharedBatchSummary) both answer.
import type { Knex } from 'knex';
import { pageItems, type BatchRow } from '../storage/queries/batches.ts';
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
