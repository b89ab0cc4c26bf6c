// A watch's runs on the job engine (queue "watch-runs", one job per (watch, period), id
// "watch-<id>.<period>"), never a timer of ours. A run:
//   1. reads the watch; an ended (or unknown) watch runs nothing and schedules nothing;
//   2. writes its (watch, period) row once (claimRun); a row already finished means this is a
//      redelivery: it only completes what may be left (alerts) and schedules the next period;
//   3. for a key's watch (after the baseline, which creation paid for), spends one of the key's
//      scans, once per period (the row's `charged`); none left that day: the run is `skipped`;
//   4. scans the domain as a batch item does (an ordinary archived scan in the background lane,
//      per-domain limit and coalescing kept, one of its address's slots held), the run marked
//      done inside the archive's transaction, conditional on it still running;
//   5. decides and sends its alerts (notify.ts), once: the run row records that it did;
//   6. enqueues the next period's job, delayed to the period's start.
// SIGKILL anywhere: the job is delivered again and each step finds what the last one left.
import { ScanWithdrawn } from '../scans/withdrawn.ts';
import { AppError } from '../errors.ts';
import { RetryLater, type Job } from '../jobs/index.ts';
import type { AddressLimiter } from '../batches/address-limit.ts';
import { AddressBusy } from '../batches/address-limit.ts';
import { AdmissionTimeout } from '../scans/admission.ts';
import type { ScanReportBody } from '../scans/types.ts';
import {
  activeWatches, claimRun, findRun, findWatch, finishRunDone, finishRunOther, latestRun, markCharged, type RunRow, type WatchRow,
} from '../storage/queries/watches.ts';
import { notifyRun } from './notify.ts';
import { nextPeriod, periodMs, periodStart, runJobId } from './schedule.ts';
import type { WatchService } from './service.ts';

export const QUEUE = 'watch-runs';
/** Ahead of batch items (500) that share the engine: a watch's period is a promise of time. */
const PRIORITY = 300;

interface RunJob { w: string; p: number }

export interface RunnerOptions {
  addresses: AddressLimiter;
  intervalS: number | undefined;
  concurrency: number;
  jobTimeoutMs: number;
}

export class WatchRunner {
  readonly #s: WatchService;
  readonly #o: RunnerOptions;

  constructor(service: WatchService, o: RunnerOptions) {
    this.#s = service;
    this.#o = o;
  }

  periodMs(w: WatchRow): number {
    return periodMs(w.every, this.#o.intervalS);
  }

  async enqueue(watchId: string, period: number, delayMs: number): Promise<void> {
    await this.#s.d.jobs.enqueue<RunJob>(QUEUE, { w: watchId, p: period }, { jobId: runJobId(watchId, period), delayMs, priority: PRIORITY, attempts: 3, backoffMs: 5000 });
  }

  /** Cancels the job of the current and the next period (whichever is queued). */
  async cancel(w: WatchRow): Promise<void> {
    const last = await latestRun(this.#s.d.db, w.id);
    const p = last ? last.period : 0;
    await Promise.allSettled([p, p + 1].map((n) => this.#s.d.jobs.cancel(QUEUE, runJobId(w.id, n))));
  }

  start(): void {
    this.#s.d.jobs.process<RunJob>(QUEUE, (job) => this.#run(job), {
      concurrency: this.#o.concurrency,
      timeoutMs: this.#o.jobTimeoutMs,
      onFailed: async (job, err) => {
        const d = this.#s.d;
        await finishRunOther(d.db, job.data.w, job.data.p, 'failed', `The scan could not complete: ${err.message}`, d.now().toISOString());
        const w = await findWatch(d.db, job.data.w);
        if (w?.status === 'active') await this.#scheduleNext(w, job.data.p);
      },
    });
    void this.#resume().catch((err: unknown) => this.#s.d.log.warn({ err }, 'watch runs not re-enqueued at start'));
  }

  /** At start: every active watch's unfinished period again, or its next one (no-ops for jobs still queued). */
  async #resume(): Promise<void> {
    let after = '';
    for (;;) {
      const page = await activeWatches(this.#s.d.db, after, 500);
      if (page.length === 0) return;
      for (const w of page) {
        const last = await latestRun(this.#s.d.db, w.id);
        if (!last) await this.enqueue(w.id, 0, 0);
        else if (last.state === 'running' || (last.state === 'done' && !last.alerted_at)) await this.enqueue(w.id, last.period, 0);
        else await this.#scheduleNext(w, last.period);
      }
      after = page.at(-1)!.id;
    }
  }

  async #scheduleNext(w: WatchRow, done: number): Promise<void> {
    const len = this.periodMs(w);
    const anchor = Date.parse(w.confirmed_at ?? w.created_at);
    const now = this.#s.d.now().getTime();
    const next = nextPeriod(anchor, len, done, now);
    await this.enqueue(w.id, next, Math.max(0, periodStart(anchor, len, next) - now));
  }

  async #run(job: Job<RunJob>): Promise<void> {
    const d = this.#s.d;
    const { w: id, p: period } = job.data;
    const w = await findWatch(d.db, id);
    if (!w || w.status !== 'active') {
      // A run an earlier attempt claimed (its address was busy, or its process died) would stay
      // `running` for ever once its watch has ended: it is finished as skipped instead.
      if (w) await finishRunOther(d.db, id, period, 'skipped', 'The watch ended before this run could scan.', d.now().toISOString());
      return;
    }
    let run = await claimRun(d.db, id, period, d.now().toISOString());
    if (run.state === 'running') run = await this.#scan(w, run, job.signal);
    if (run.state === 'done' && !run.alerted_at) await notifyRun(this.#s, w, run);
    await this.#scheduleNext(w, period);
  }

  async #scan(w: WatchRow, run: RunRow, signal: AbortSignal): Promise<RunRow> {
    const d = this.#s.d;
    const at = () => d.now().toISOString();
    if (w.key_id && run.period > 0 && (await markCharged(d.db, w.id, run.period))) {
      try {
        await d.keys.consume(w.key_id, 1);
      } catch (err) {
        if (err instanceof AppError && (err.code === 'RATE_LIMITED' || err.code === 'UNAUTHORIZED')) {
          // Nothing was spent: the row says so before it is finished (a crash between the two
          // leaves it running, and the redelivery asks the key again).
          await d.db('watch_runs').where({ watch_id: w.id, period: run.period }).update({ charged: false });
          await finishRunOther(d.db, w.id, run.period, 'skipped', err.code === 'RATE_LIMITED' ? 'The key had no scan left that day.' : 'The key that pays for this watch is revoked.', at());
          return (await findRun(d.db, w.id, run.period))!;
        }
        await d.db('watch_runs').where({ watch_id: w.id, period: run.period }).update({ charged: false });
        throw err;
      }
    }
    const answer = await d.resolve(w.domain);
    const address = answer.ok ? answer.addresses[0] ?? w.domain : w.domain;
    try {
      const { body, archivedHere } = await this.#o.addresses.run(address, () => d.scans.scanBatchItem({
        domain: w.domain,
        lead: { name: w.lead_name, email: w.lead_email, phone: w.lead_phone, role: w.lead_role },
        stop: signal,
        archiveAlso: async (trx, report) => {
          if (!(await finishRunDone(trx, w.id, run.period, resultOf(report), at()))) throw new ScanWithdrawn('the watch run was finished by another run');
        },
      }));
      if (!archivedHere) {
        if (typeof body.reportUrl === 'string') await finishRunDone(d.db, w.id, run.period, resultOf(body), at());
        else await finishRunOther(d.db, w.id, run.period, 'failed', 'The scan was served without an archive, so it cannot be compared.', at());
      }
    } catch (err) {
      // Another run of this period won the exactly-once race: its result stands; this scan was not kept.
      if (err instanceof ScanWithdrawn) return (await findRun(d.db, w.id, run.period))!;
      if (err instanceof AddressBusy) throw new RetryLater(err.retryInMs, err.message);
      if (err instanceof AdmissionTimeout) throw new RetryLater(1000, 'the instance is stopping');
      if (err instanceof AppError && err.code === 'RATE_LIMITED') throw new RetryLater((err.body.retryAfterSeconds ?? 10) * 1000, 'the domain\'s rate limit');
      // A site that could not be tested is a result of the run, not a fault of the job.
      if (err instanceof AppError && (err.status < 500 || err.code === 'SCAN_FAILED')) {
        await finishRunOther(d.db, w.id, run.period, 'failed', [err.body.error, err.body.detail].filter(Boolean).join(' '), at());
      } else throw err;
    }
    return (await findRun(d.db, w.id, run.period))!;
  }
}

function resultOf(r: ScanReportBody) {
  return { scanId: r.scanId, headline: r.headline, score: r.score.value };
}
