// How many site scans run at once on this instance. A scan mostly waits on the site, so many
// can share one process; but once the event loop is saturated, a scan started on top adds no
// throughput, only memory (its sixteen TLS connections and its evidence) and latency for every
// scan already running (bench/results.md). So scans wait, first come first served, while the
// loop is saturated, and are let in whenever it idles with scans waiting, in proportion to the
// idle time: the loop never idles while a scan could run, and scans of slow real sites, which
// leave it idle, still run as many at once as arrive.
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
  /** Utilisation (0–1) of the event loop below which waiting scans are let in. */
  busy?: number;
  intervalMs?: number;
  /** The loop's utilisation since the previous call (tests script it). */
  utilization?: () => number;
}

/** A scan that was still waiting for room when its deadline passed. */
export class AdmissionTimeout extends Error {
  override name = 'AdmissionTimeout';
}

/** Utilisation at which the loop had no idle time to speak of, and how many steps of it shed. */
const SATURATED = 0.99;
const SATURATED_STEPS = 3;

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
  /** Steps in a row the loop was saturated. */
  #saturatedSteps = 0;

  constructor(o: AdmissionOptions = {}) {
    this.#min = o.min ?? 8;
    this.#max = Math.max(this.#min, o.max ?? 256);
    this.#busy = o.busy ?? 0.95;
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

  /** Whether a scan asking now would wait (the bound is reached, or others wait already). */
  get wouldWait(): boolean {
    return this.#limit.activeCount >= this.#limit.concurrency || this.#limit.pendingCount > 0;
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
   * One step of the controller, from the loop's utilisation since the last step:
   * - idle time while scans wait is capacity lost: raise the bound in proportion to it (twice
   *   the shortfall from `busy`, at least 2), so a burst of slow sites is let in within a
   *   second or two and the loop never idles while a scan could run;
   * - nothing waiting: keep room for twice the scans running;
   * - busy: hold the bound where the running scans are, so each one that ends lets one in;
   * - saturated for SATURATED_STEPS steps in a row: shed a tenth, so the bound drifts down to
   *   the fewest scans that keep the loop busy, and the memory of the rest is never taken;
   * - nothing running or waiting: start again from `min`.
   */
  tick(): void {
    const u = this.#utilization();
    this.#saturatedSteps = u >= SATURATED ? this.#saturatedSteps + 1 : 0;
    const running = this.#limit.activeCount;
    const waiting = this.#limit.pendingCount;
    const allowed = this.#limit.concurrency;
    let next: number;
    if (running === 0 && waiting === 0) next = this.#min;
    else if (u < this.#busy) next = waiting > 0 ? allowed + Math.max(2, Math.ceil(allowed * (this.#busy - u) * 2)) : Math.min(allowed, 2 * running);
    else if (this.#saturatedSteps >= SATURATED_STEPS) next = Math.floor(Math.min(allowed, running) * 0.9);
    else next = Math.min(allowed, running);
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
    this.#saturatedSteps = 0;
    this.#timer = setInterval(() => this.tick(), this.#intervalMs);
    this.#timer.unref();
  }

  #stopWatching(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
