// Batches: a partner's list of domains, each scanned as an ordinary scan (archived, with a
// permalink) by the one scan service, item by item on the job engine.
//
//   create  parse and fold the list, spend the key's budget, store the batch and its items,
//           enqueue one job per item (id "<batchId>.<seq>"); if the engine cannot take them,
//           the batch is deleted and the budget given back (503): nothing half-written stays
//   process a job: the item, if still pending, is scanned in the background lane of admission,
//           holding one of its target address's slots (address-limit.ts); its archive write and
//           the item's "done" are one transaction, conditional on the item still pending, so a
//           redelivered job never archives an item twice
//   resume  at start, every pending item of an unfinished batch is enqueued again (no-ops for
//           those still queued), so nothing is lost if a process died between store and enqueue
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors.ts';
import { RetryLater, type Job, type JobEngine } from '../jobs/index.ts';
import type { ApiKeys, Budget, Caller } from '../keys/service.ts';
import { AdmissionTimeout } from '../scans/admission.ts';
import type { ScanService } from '../scans/service.ts';
import type { Profile, Resolver, ScanReportBody } from '../scans/types.ts';
import {
  cancelBatch, countItems, deleteBatch, findBatch, findItem, finishIfDone, finishItemDone, finishItemFailed, insertBatch, markItemRunning, markStarted, pendingItems,
  type BatchRow,
} from '../storage/queries/batches.ts';
import { AddressBusy, type AddressLimiter } from './address-limit.ts';
import { entriesOf, parseBatch, type Rejected } from './parse.ts';
import { factsOf } from './summary.ts';

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
  /** Batch items scanned at once by this instance (WORKER_CONCURRENCY). */
  concurrency: number;
  /** A run's limit: the scan deadline plus its wait for an address slot and margin. */
  jobTimeoutMs: number;
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

  constructor(deps: BatchDeps) {
    this.#d = deps;
  }

  links(id: string) {
    const base = `${this.#d.baseUrl}/batches/${id}`;
    return { self: base, results: `${base}/results`, summary: `${base}/summary` };
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

  async view(caller: Caller, id: string): Promise<BatchView> {
    const row = await this.find(caller, id);
    return { row, ...(await countItems(this.#d.db, id)) };
  }

  /** Cancels the items not started; those running finish. Their scans are given back to the key's day. */
  async cancel(caller: Caller, id: string): Promise<BatchView> {
    const row = await this.find(caller, id);
    if (row.status === 'queued' || row.status === 'running') {
      const seqs = await cancelBatch(this.#d.db, id, this.#d.now().toISOString());
      await Promise.allSettled(seqs.map((seq) => this.#d.jobs.cancel(QUEUE, `${id}.${seq}`)));
      await this.#d.keys.refund(row.key_id, seqs.length, new Date(`${row.charged_day}T12:00:00Z`)).catch(() => undefined);
    }
    return this.view(caller, id);
  }

  /** Starts this instance's worker and re-enqueues pending items of unfinished batches. */
  start(): void {
    this.#d.jobs.process<ItemJob>(QUEUE, (job) => this.#process(job), {
      concurrency: this.#d.concurrency,
      timeoutMs: this.#d.jobTimeoutMs,
      onFailed: (job, err) => this.#failed(job.data, err),
    });
    void this.#resume().catch((err: unknown) => this.#d.log.warn({ err }, 'pending batch items not re-enqueued at start'));
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
    // A cancel takes only what has not started: an item already running when its batch was
    // cancelled finishes, even when its first run died with its process and this is the engine
    // redelivering it (else it would stay "running" for ever). The finish stays conditional, so a
    // first run still alive and this one archive it once between them.
    if (!batch || (batch.status === 'cancelled' && item.state !== 'running')) return;
    await markStarted(this.#d.db, batchId, this.#d.now().toISOString());
    await markItemRunning(this.#d.db, batchId, seq);
    const answer = await this.#d.resolve(item.domain);
    const address = answer.ok ? answer.addresses[0] ?? item.domain : item.domain;
    try {
      const { body, archivedHere } = await this.#d.addresses.run(address, () => this.#d.scans.scanBatchItem({
        domain: item.domain,
        ...(batch.profile ? { profile: batch.profile as Profile } : {}),
        stop: job.signal,
        archiveAlso: async (trx, report) => {
          if (!(await finishItemDone(trx, batchId, seq, resultOf(report, true), this.#d.now().toISOString()))) throw new Error('batch item already finished');
        },
      }));
      if (!archivedHere) await finishItemDone(this.#d.db, batchId, seq, resultOf(body, typeof body.reportUrl === 'string'), this.#d.now().toISOString());
    } catch (err) {
      if (err instanceof AddressBusy) throw new RetryLater(1000 + Math.random() * 1000, err.message);
      if (err instanceof AdmissionTimeout) throw new RetryLater(1000, 'the instance is stopping');
      if (err instanceof AppError && err.code === 'RATE_LIMITED') throw new RetryLater((err.body.retryAfterSeconds ?? 10) * 1000, 'the domain\'s rate limit');
      // A site that could not be tested is a result of the batch, not a fault of the job.
      if (err instanceof AppError && err.status < 500 || err instanceof AppError && err.code === 'SCAN_FAILED') {
        await finishItemFailed(this.#d.db, batchId, seq, JSON.stringify(err.body), this.#d.now().toISOString());
      } else throw err;
    }
    await finishIfDone(this.#d.db, batchId, this.#d.now().toISOString());
  }

  async #failed(data: ItemJob, err: Error): Promise<void> {
    await finishItemFailed(this.#d.db, data.b, data.s, JSON.stringify({ error: 'The scan could not complete.', detail: err.message.slice(0, 300) }), this.#d.now().toISOString());
    await finishIfDone(this.#d.db, data.b, this.#d.now().toISOString());
  }
}

function resultOf(report: ScanReportBody, archived: boolean) {
  return { scanId: report.scanId, archived, headline: report.headline, score: report.score.value, confidence: report.confidence, facts: JSON.stringify(factsOf(report)) };
}
