// The partner console's reads (listBatches, listWatches, getKey): a key's own batches and
// watches a page at a time, and its budget. Every call authenticates the bearer first, so a
// revoked key is refused (401) on its very next request, on every instance.
import type { Knex } from 'knex';
import type { components } from '../../generated/api-types.ts';
import { batchBody } from '../batches/views.ts';
import type { BatchService } from '../batches/service.ts';
import type { ApiKeys, Budget, KeyRecord } from '../keys/service.ts';
import { reportUrlFor } from '../scans/archive.ts';
import { itemCounts, keyBatches, keyWatches, watchFacts } from '../storage/queries/console.ts';
import type { WatchService } from '../watches/service.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

export interface ConsoleDeps {
  db: Knex;
  now: () => Date;
  baseUrl: string;
  keys: ApiKeys;
  batches: BatchService;
  watches: WatchService;
}

type BatchPage = components['schemas']['BatchPage'];
type WatchPage = components['schemas']['WatchPage'];
type WatchItem = components['schemas']['WatchListItem'];

export const DEFAULT_LIMIT = 25;

interface Paged<T> { key: KeyRecord; budget: Budget; page: T }

export class PartnerConsole {
  readonly d: ConsoleDeps;

  constructor(deps: ConsoleDeps) {
    this.d = deps;
  }

  /** The key behind the header and its budget today (nothing spent); a 401 when missing, unknown or revoked. */
  async whoami(authorization: string | undefined): Promise<{ key: KeyRecord; budget: Budget }> {
    const key = await this.d.keys.authenticate(authorization);
    return { key, budget: await this.d.keys.peek(key.keyId) };
  }

  async batches(authorization: string | undefined, cursor: string | undefined, limit = DEFAULT_LIMIT): Promise<Paged<BatchPage>> {
    const { key, budget } = await this.whoami(authorization);
    // One row more than the page tells whether another page follows without a count.
    const rows = await keyBatches(this.d.db, key.keyId, decodeCursor(cursor), limit + 1);
    const page = rows.slice(0, limit);
    const counts = await itemCounts(this.d.db, page.map((r) => r.id));
    const nowMs = this.d.now().getTime();
    const items = await Promise.all(page.map(async (r) => batchBody({ ...r, total: Number(r.total) }, counts.get(r.id)!, await this.d.batches.links(r), nowMs)));
    const last = page.at(-1);
    return { key, budget, page: { items, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null } };
  }

  async watches(authorization: string | undefined, cursor: string | undefined, limit = DEFAULT_LIMIT): Promise<Paged<WatchPage>> {
    const { key, budget } = await this.whoami(authorization);
    const rows = await keyWatches(this.d.db, key.keyId, decodeCursor(cursor), limit + 1);
    const page = rows.slice(0, limit);
    const facts = await watchFacts(this.d.db, page.map((r) => r.id));
    const items = await Promise.all(page.map(async (w): Promise<WatchItem> => {
      const f = facts.get(w.id)!;
      const r = f.lastRun;
      return {
        watchId: w.id, domain: w.domain, status: w.status, every: w.every, createdAt: w.created_at,
        manageUrl: (await this.d.watches.links(w.id)).manage,
        lastRun: r ? {
          period: r.period, state: r.state, startedAt: r.started_at, finishedAt: r.finished_at,
          headline: (r.headline as components['schemas']['Headline'] | null) ?? null, score: r.score === null ? null : Number(r.score),
          reportUrl: r.scan_id ? reportUrlFor(this.d.baseUrl, r.scan_id) : null,
        } : null,
        lastChangeAt: f.lastChangeAt, failingDeliveries: f.failing,
      };
    }));
    const last = page.at(-1);
    return { key, budget, page: { items, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null } };
  }
}
