// How many site scans run at once on this instance. A scan mostly waits on the site, so many
// can share one process; but once the event loop is saturated, a scan started on top adds no
// throughput, only memory (its sixteen TLS connections and its evidence) and latency for every
// scan already running (bench/results.md). So new scans wait, first come first served, while
// the loop is busy, and are let in as soon as it has room: scans of slow real sites, which
// leave the loop idle, still run as many at once as arrive.
//
// The bound itself is p-limit's; this module only moves it, from the event loop's utilisation
// (performance.eventLoopUtilization) measured every `intervalMs` while scans run or wait.
import { performance } from 'node:perf_hooks';
import pLimit, { type LimitFunction } from 'p-limit';

export interface AdmissionOptions {
  /** Scans let in at once however busy the loop is. */
  min?: number;
  /** Scans let in at once however idle the loop is. */
  max?: number;
  /** Utilisation (0–1) of the event loop at or above which no further scan is let in. */
  busy?: number;
  intervalMs?: number;
  /** The loop's utilisation since the previous call (tests script it). */
  utilization?: () => number;
}

/** A scan that was still waiting for room when its deadline passed. */
export class AdmissionTimeout extends Error {
  override name = 'AdmissionTimeout';
}

/** Weight of the past in the averaged utilisation: about the last four steps count. */
const SMOOTHING = 0.75;

function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const u = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return u;
  };
}

export class ScanAdmission {
  readonly #min: number;
  readonly #max: number;
  readonly #busy: number;
  readonly #intervalMs: number;
  readonly #utilization: () => number;
  readonly #limit: LimitFunction;
  #timer: NodeJS.Timeout | undefined;
  /** The loop's utilisation, averaged over the last few steps. */
  #smoothed: number | undefined;

  constructor(o: AdmissionOptions = {}) {
    this.#min = o.min ?? 8;
    this.#max = Math.max(this.#min, o.max ?? 256);
    this.#busy = o.busy ?? 0.9;
    this.#intervalMs = o.intervalMs ?? 100;
    this.#utilization = o.utilization ?? loopUtilization();
    this.#limit = pLimit(this.#min);
  }

  /** Scans running now. */
  get running(): number {
    return this.#limit.activeCount;
  }

  /** Scans waiting to be let in. */
  get waiting(): number {
    return this.#limit.pendingCount;
  }

  /** How many may run at once right now. */
  get allowed(): number {
    return this.#limit.concurrency;
  }

  /**
   * Runs `scan` once there is room. If `signal` aborts first, the promise rejects with an
   * AdmissionTimeout at once and the scan never starts.
   */
  run<T>(scan: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.#watch();
    if (!signal) return this.#limit(scan);
    return new Promise<T>((resolve, reject) => {
      let waiting = true;
      const giveUp = () => {
        waiting = false;
        reject(new AdmissionTimeout('the scan deadline passed while it waited for room'));
      };
      if (signal.aborted) return giveUp();
      signal.addEventListener('abort', giveUp, { once: true });
      // Once let in, the scan answers to the signal itself (the engine's deadline).
      this.#limit(async () => {
        signal.removeEventListener('abort', giveUp);
        if (!waiting) return undefined as T; // gave up while waiting: its slot passes straight on
        waiting = false;
        return scan();
      }).then(resolve, reject);
    });
  }

  /**
   * One step of the controller. Busy (this step, or on average: a single quiet step of a busy
   * loop is noise, a GC pause on another thread or a burst of I/O): hold the bound where the
   * running scans are, so each one that ends lets one in and no more. Room, with scans waiting:
   * raise it by a quarter (at least 2), which takes a burst from 8 to 100 at once in about a
   * second. A quiet spell starts again from `min`.
   */
  tick(): void {
    const u = this.#utilization();
    this.#smoothed = this.#smoothed === undefined ? u : SMOOTHING * this.#smoothed + (1 - SMOOTHING) * u;
    const running = this.#limit.activeCount;
    const waiting = this.#limit.pendingCount;
    const allowed = this.#limit.concurrency;
    let next = allowed;
    if (u >= this.#busy || this.#smoothed >= this.#busy) next = Math.min(allowed, running);
    else if (waiting > 0) next = allowed + Math.max(2, Math.ceil(allowed / 4));
    if (running === 0 && waiting === 0) next = this.#min;
    next = Math.min(this.#max, Math.max(this.#min, next));
    if (next !== allowed) this.#limit.concurrency = next;
    if (running === 0 && waiting === 0) this.#stopWatching();
  }

  close(): void {
    this.#stopWatching();
  }

  #watch(): void {
    if (this.#timer || this.#intervalMs <= 0) return;
    this.#utilization(); // starts the measurement window here, not at the last quiet spell
    this.#smoothed = undefined;
    this.#timer = setInterval(() => this.tick(), this.#intervalMs);
    this.#timer.unref();
  }

  #stopWatching(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
