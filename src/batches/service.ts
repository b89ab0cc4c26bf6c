// Batches: a partner's list of domains, each scanned as an ordinary scan (archived, with a
// permalink) by the one scan service, item by item on the job engine.
//
//   create  parse and fold the list, spend the key's budget, store the batch and its items,
//           enqueue one job per item (id "<batchId>.<seq>"); if the engine cannot take them,
//           the batch is deleted and the budget given back (503): nothing half-written stays
//   process a job: the item, if still open, takes one of its target address's slots at once
//           (address-limit.ts; none free: the job goes back to the queue for about the time the
//           scans ahead take, spending neither its timeout nor an attempt), then is scanned in
//           the background lane of admission. Right before the scan's first request the item is
//           taken (pending → running) in one conditional update, so a cancel that has answered
//           never sees its item scanned. Its archive write and the item's "done" are one
//           transaction, conditional on the item still open, so a redelivered job never
//           archives an item twice; the run that loses that race is dropped quietly
//           (ScanWithdrawn: not archived, never served, not an error)
//   give up a job the engine gives up (attempts used, or LOST_RUNS runs lost to crashes: a poison
//           item) ends its item as failed with the reason, once
//   reconcile at start and every RECONCILE_MS, on every instance (reconciler.ts): batches whose
//           items are all finished are marked done, whatever crashed before finishIfDone; and
//           every RESUME_EVERY reconciles the open items are enqueued again (no-ops for those
//           queued), so a job lost with its backend's data (a Redis restarted empty) runs again
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors.ts';
import { RetryLater, type Job, type JobEngine } from '../jobs/index.ts';
import type { ApiKeys, Budget, Caller } from '../keys/service.ts';
import { AdmissionTimeout } from '../scans/admission.ts';
import type { ScanService } from '../scans/service.ts';
import type { Profile, Resolver, ScanReportBody } from '../scans/types.ts';
import { ScanWithdrawn } from '../scans/withdrawn.ts';
import {
  bumpLinksVersion, cancelBatch, countItems, deleteBatch, findBatch, findItem, finishIfDone, finishItemDone, finishItemFailed, insertBatch, markStarted, pendingItems, takeItem,
  type BatchRow,
} from '../storage/queries/batches.ts';
import { AddressBusy, type AddressLimiter } from './address-limit.ts';
import { batchLinks, type Links } from './links.ts';
import { linkTokenMatches, batchLinkToken } from './link-tokens.ts';
import { entriesOf, parseBatch, type Rejected } from './parse.ts';
import { Reconciler } from './reconciler.ts';
import { resultChunks } from './results.ts';
import { deniedOf, factsOf } from './summary.ts';
import { SummaryCache } from './summary-cache.ts';

export const QUEUE = 'batch-items';
/** Below interactive work of other queues (watch runs) that may share the engine. */
const PRIORITY = 500;

export interface BatchDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  baseUrl: string;
  jobs: JobEngine;
  keys: ApiKeys;
  scans: ScanService;
  resolve: Resolver;
  addresses: AddressLimiter;
  /** The webhook master key, from which the capability links' tokens are derived (link-tokens.ts). */
  masterKey: () => Promise<string>;
  /** Batch items scanned at once by this instance (WORKER_CONCURRENCY). */
  concurrency: number;
  /** A run's limit: the scan deadline, its wait for room in admission, and margin (never a wait for an address slot). */
  jobTimeoutMs: number;
  /** How often finished batches are reconciled (default 10 s: a batch is marked done at most this long after its last item). */
  reconcileMs?: number;
  /** Told of n items moving into a state (the metrics' counter). */
  onItems?: (state: 'queued' | 'done' | 'failed' | 'cancelled', n: number) => void;
}

interface ItemJob { b: string; s: number }

export interface Created {
  batchId: string;
  total: number;
  duplicates: number;
  rejected: Rejected[];
  budget: Budget;
}

export interface BatchView {
  row: BatchRow;
  byState: Record<string, number>;
  byHeadline: Record<string, number>;
}

export class BatchService {
  readonly #d: BatchDeps;
  readonly #reconciler: Reconciler;
  readonly #summaries: SummaryCache;
  #streaming = 0;

  constructor(deps: BatchDeps) {
    this.#d = deps;
    this.#summaries = new SummaryCache(deps.db);
    this.#reconciler = new Reconciler({ db: deps.db, log: deps.log, now: deps.now, everyMs: deps.reconcileMs ?? 10_000, resume: () => this.#resume() });
  }

  /** The batch's API links and its capability links (holding the current token) for browsers. */
  async links(row: Pick<BatchRow, 'id' | 'links_version'>): Promise<Links> {
    return batchLinks(this.#d.baseUrl, row.id, batchLinkToken(await this.#d.masterKey(), row.id, row.links_version ?? 1));
  }

  /** The batch's summary (getBatchSummary, getSharedBatchSummary); a done batch's is folded once per instance. */
  summary(row: BatchRow) {
    return this.#summaries.get(row);
  }

  /** Replaces the capability links: the old token stops opening anything at once, on every instance. */
  async rotateLinks(caller: Caller, id: string): Promise<Links> {
    const row = await this.find(caller, id);
    const version = await bumpLinksVersion(this.#d.db, row.id);
    if (version === undefined) throw errors.notFound('No batch with this id.', 'A batch is visible only to the key that created it.');
    return this.links({ id: row.id, links_version: version });
  }

  /**
   * The batch a capability link opens: its current token, and its key still live. Every other
   * case (no batch, an old or wrong token, a revoked key) is the same 404, so a link tells a
   * stranger nothing, not even whether the batch exists.
   */
  async shared(id: string, token: string | undefined): Promise<BatchRow> {
    const row = /^[0-9a-f-]{36}$/.test(id) ? await findBatch(this.#d.db, id) : undefined;
    const ok = row !== undefined && linkTokenMatches(await this.#d.masterKey(), row.id, row.links_version ?? 1, token) && await this.#d.keys.isLive(row.key_id);
    if (!ok) throw errors.notFound('No batch at this link.', 'The link may have been rotated, or its key revoked; ask whoever sent it for a new one.');
    return row;
  }

  async create(caller: Caller, contentType: string, body: unknown, opts: { profile?: Profile; label?: string }): Promise<Created> {
    if (caller.kind !== 'partner') throw errors.unauthorized('A partner API key is required to create a batch.', 'Batches are paid from a key\'s daily budget; the operator token has none.');
    const parsed = parseBatch(entriesOf(contentType, body), (raw) => this.#d.scans.readDomain(raw));
    if (parsed.domains.length === 0) {
      throw errors.badRequest(`None of the ${parsed.rejected.length} entries is a domain that can be scanned.`,
        parsed.rejected.slice(0, 5).map((r) => `line ${r.line}: ${r.error}`).join(' '));
    }
    const budget = await this.#d.keys.consume(caller.key.keyId, parsed.domains.length);
    const now = this.#d.now();
    const id = randomUUID();
    const row: BatchRow = {
      id, key_id: caller.key.keyId, label: opts.label ?? null, profile: opts.profile ?? null, status: 'queued', total: parsed.domains.length,
      rejected: JSON.stringify(parsed.rejected), charged_day: now.toISOString().slice(0, 10), created_at: now.toISOString(), started_at: null, finished_at: null,
    };
    try {
      await insertBatch(this.#d.db, row, parsed.domains);
    } catch (err) {
      await this.#d.keys.refund(caller.key.keyId, parsed.domains.length, now).catch(() => undefined);
      throw err;
    }
    try {
      await this.#d.jobs.enqueueMany<ItemJob>(QUEUE, parsed.domains.map((_, seq) => ({ data: { b: id, s: seq }, opts: this.#jobOptions(id, seq) })));
    } catch (err) {
      // Nothing half-written: the batch goes, the budget comes back. Jobs that did get queued
      // find no item and do nothing.
      this.#d.log.error({ err, batchId: id }, 'batch not queued: the job engine is unavailable');
      await deleteBatch(this.#d.db, id).catch((e: unknown) => this.#d.log.error({ err: e, batchId: id }, 'could not remove the unqueued batch'));
      await this.#d.keys.refund(caller.key.keyId, parsed.domains.length, now).catch(() => undefined);
      throw errors.unavailable('The batch could not be queued: the job engine is unavailable. Nothing was stored and no budget was spent.', 'Try again in a minute.', err);
    }
    this.#d.onItems?.('queued', parsed.domains.length);
    return { batchId: id, total: parsed.domains.length, duplicates: parsed.duplicates, rejected: parsed.rejected, budget };
  }

  #jobOptions(batchId: string, seq: number) {
    return { jobId: `${batchId}.${seq}`, priority: PRIORITY, attempts: 3, backoffMs: 5000 };
  }

  /** The batch if the caller may see it (its key, or the operator); anyone else gets the same 404 as for no batch. */
  async find(caller: Caller, id: string): Promise<BatchRow> {
    const row = await findBatch(this.#d.db, id);
    if (!row || (caller.kind === 'partner' && caller.key.keyId !== row.key_id)) {
      throw errors.notFound('No batch with this id.', 'A batch is visible only to the key that created it.');
    }
    return row;
  }

  /** Result streams open now (GET /batches/{id}/results): each ends when its client does. */
  get openResultStreams(): number {
    return this.#streaming;
  }

  /** A batch's results as NDJSON or CSV chunks, read page by page while the client reads. */
  async *results(batchId: string, csv: boolean): AsyncGenerator<string> {
    this.#streaming++;
    try {
      yield* resultChunks(this.#d.db, batchId, csv, this.#d.baseUrl);
    } finally {
      this.#streaming--;
    }
  }

  async view(caller: Caller, id: string): Promise<BatchView> {
    const row = await this.find(caller, id);
    return { row, ...(await countItems(this.#d.db, id)) };
  }

  /** Cancels the items not started; those running finish. Their scans are given back to the key's day. */
  async cancel(caller: Caller, id: string): Promise<BatchView> {
    const row = await this.find(caller, id);
    if (row.status === 'queued' || row.status === 'running') {
      const seqs = await cancelBatch(this.#d.db, id, this.#d.now().toISOString());
      this.#d.onItems?.('cancelled', seqs.length);
      await Promise.allSettled(seqs.map((seq) => this.#d.jobs.cancel(QUEUE, `${id}.${seq}`)));
      await this.#d.keys.refund(row.key_id, seqs.length, new Date(`${row.charged_day}T12:00:00Z`)).catch(() => undefined);
    }
    return this.view(caller, id);
  }

  /** Starts this instance's worker and its reconciler (which re-enqueues open items of unfinished batches at once). */
  start(): void {
    this.#d.jobs.process<ItemJob>(QUEUE, (job) => this.#process(job), {
      concurrency: this.#d.concurrency,
      timeoutMs: this.#d.jobTimeoutMs,
      onFailed: (job, err) => this.#failed(job.data, err),
    });
    this.#reconciler.start();
  }

  /** Stops the reconciler (the engine's close ends the jobs). */
  async stop(): Promise<void> {
    await this.#reconciler.stop();
  }

  async #resume(): Promise<void> {
    let after = { batch: '', seq: -1 };
    for (;;) {
      const page = await pendingItems(this.#d.db, after.batch, after.seq, 1000);
      if (page.length === 0) return;
      await this.#d.jobs.enqueueMany<ItemJob>(QUEUE, page.map((p) => ({ data: { b: p.batch_id, s: p.seq }, opts: this.#jobOptions(p.batch_id, p.seq) })));
      const last = page.at(-1)!;
      after = { batch: last.batch_id, seq: last.seq };
    }
  }

  async #process(job: Job<ItemJob>): Promise<void> {
    const { b: batchId, s: seq } = job.data;
    const item = await findItem(this.#d.db, batchId, seq);
    if (!item || (item.state !== 'pending' && item.state !== 'running')) return;
    const batch = await findBatch(this.#d.db, batchId);
    if (!batch) return;
    const at = () => this.#d.now().toISOString();
    await markStarted(this.#d.db, batchId, at());
    const answer = await this.#d.resolve(item.domain);
    const address = answer.ok ? answer.addresses[0] ?? item.domain : item.domain;
    try {
      const { body, archivedHere } = await this.#d.addresses.run(address, () => this.#d.scans.scanBatchItem({
        domain: item.domain,
        ...(batch.profile ? { profile: batch.profile as Profile } : {}),
        stop: job.signal,
        // A cancel takes what has not started: an item already taken (its first run died, or
        // still runs) finishes; one cancelled meanwhile is never scanned.
        starting: async () => {
          if (!(await takeItem(this.#d.db, batchId, seq))) throw new ScanWithdrawn('the batch item was cancelled before its scan started');
        },
        archiveAlso: async (trx, report) => {
          if (!(await finishItemDone(trx, batchId, seq, resultOf(report, true), at()))) throw new ScanWithdrawn('the batch item was finished by another run');
        },
      }));
      if (archivedHere || await finishItemDone(this.#d.db, batchId, seq, resultOf(body, typeof body.reportUrl === 'string'), at())) this.#d.onItems?.('done', 1);
    } catch (err) {
      // Cancelled before it started, or the exactly-once race lost: nothing to keep, nothing wrong.
      if (err instanceof ScanWithdrawn) {
        this.#d.log.debug({ batchId, seq, reason: err.message }, 'batch item scan withdrawn');
        return;
      }
      if (err instanceof AddressBusy) throw new RetryLater(err.retryInMs, err.message);
      if (err instanceof AdmissionTimeout) throw new RetryLater(1000, 'the instance is stopping');
      if (err instanceof AppError && err.code === 'RATE_LIMITED') throw new RetryLater((err.body.retryAfterSeconds ?? 10) * 1000, 'the domain\'s rate limit');
      // A site that could not be tested is a result of the batch, not a fault of the job.
      if (err instanceof AppError && err.status < 500 || err instanceof AppError && err.code === 'SCAN_FAILED') {
        if (await finishItemFailed(this.#d.db, batchId, seq, JSON.stringify(err.body), at())) this.#d.onItems?.('failed', 1);
      } else throw err;
    }
    await finishIfDone(this.#d.db, batchId, at());
  }

  async #failed(data: ItemJob, err: Error): Promise<void> {
    if (await finishItemFailed(this.#d.db, data.b, data.s, JSON.stringify({ error: 'The scan could not complete.', detail: err.message.slice(0, 300) }), this.#d.now().toISOString())) this.#d.onItems?.('failed', 1);
    await finishIfDone(this.#d.db, data.b, this.#d.now().toISOString());
  }
}

function resultOf(report: ScanReportBody, archived: boolean) {
  const facts = factsOf(report);
  return { scanId: report.scanId, archived, headline: report.headline, score: report.score.value, confidence: report.confidence, facts: JSON.stringify(facts), denied: deniedOf(facts) };
}
