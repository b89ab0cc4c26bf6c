// The summaries of finished batches, kept per instance. A batch that is done never changes
// again (every item finished, none can start), so its summary is folded once and reused: paging
// through the portfolio grid of a 5,000-site batch then costs one page of rows, not a fold of
// 5,000 items' facts per click. Batches still running (or cancelled, whose running items still
// finish) are folded on every request. Bounded, least recently used first out.
import type { Knex } from 'knex';
import type { BatchRow } from '../storage/queries/batches.ts';
import { summarize } from './summarize.ts';

type Body = Awaited<ReturnType<typeof summarize>>;

export class SummaryCache {
  readonly #db: Knex;
  readonly #max: number;
  readonly #done = new Map<string, Promise<Body>>();

  constructor(db: Knex, max = 64) {
    this.#db = db;
    this.#max = max;
  }

  get(row: BatchRow): Promise<Body> {
    if (row.status !== 'done') return summarize(this.#db, row);
    const hit = this.#done.get(row.id);
    if (hit) {
      this.#done.delete(row.id);
      this.#done.set(row.id, hit);
      return hit;
    }
    const p = summarize(this.#db, row);
    this.#done.set(row.id, p);
    p.catch(() => this.#done.delete(row.id)); // a failed read is tried again by the next request
    while (this.#done.size > this.#max) this.#done.delete(this.#done.keys().next().value!);
    return p;
  }
}
