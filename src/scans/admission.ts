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
//
// Background scans (batch items) have a lane of their own: they never queue in p-limit, where
// a person's scan arriving later would wait behind them. A background scan waits outside until
// no scan is waiting and the running ones leave `reserve` slots free, and only then enters, so
// a person's scan always finds room at once. Waiting background scans count as waiting when the
// bound is moved, so an idle loop still lets the lane grow.
//
// Free slots are not enough for a person's scan to run as fast as on an idle instance: the
// batch's scans keep the one event loop busy (utilisation about 0.9, p99 loop delay 60-230 ms
// in a 1,000-item batch), and every step of the person's scan waits its turn behind theirs. So
// while people's scans run, and for `holdMs` after the last one ends (people often scan again),
// the lane lets in no more than `whilePeople` background scans at once; those already running
// finish, and the lane refills once people are gone. The lane is held back only for the CPU:
// while the loop idles more than `peopleIdle` of its time (background scans of slow sites, which
// mostly wait), it grows again by one scan a step, so a busy public instance never starves a
// batch of slow sites, whose claimed jobs would otherwise outwait their timeout.
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
  /** Slots background scans always leave free for people's scans (default: a quarter of the bound, at least 2). */
  reserve?: number;
  /** Background scans at once while people's scans run or ran less than `holdMs` ago (default 2). */
  whilePeople?: number;
  /** How long after the last person's scan the lane stays at `whilePeople` (default 2,000 ms). */
  holdMs?: number;
  /** Utilisation below which the lane grows again, one scan a step, while people scan (default 0.5). */
  peopleIdle?: number;
  /** Milliseconds on a monotonic clock (tests move it). */
  nowMs?: () => number;
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
  readonly #reserve: number | undefined;
  readonly #whilePeople: number;
  readonly #holdMs: number;
  readonly #peopleIdle: number;
  /** Background scans let in at once while people scan: `whilePeople`, grown while the loop idles. */
  #laneWithPeople: number;
  readonly #now: () => number;
  /** People's scans asked for and not yet finished (waiting or running). */
  #people = 0;
  /** When the last person's scan finished (monotonic ms). */
  #peopleLeftAt = -Infinity;
  /** Background scans running (let in and started). */
  #backgroundRunning = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Steps in a row the loop was saturated. */
  #saturatedSteps = 0;
  /** Background scans let in whose run() has not started them yet. */
  #entering = 0;
  /** Background scans waiting for room, first come first served. */
  readonly #background: Array<{ wake: () => void; giveUp: () => void }> = [];

  constructor(o: AdmissionOptions = {}) {
    this.#min = o.min ?? 8;
    this.#max = Math.max(this.#min, o.max ?? 256);
    this.#busy = o.busy ?? 0.95;
    this.#intervalMs = o.intervalMs ?? 100;
    this.#utilization = o.utilization ?? loopUtilization();
    this.#limit = pLimit(this.#min);
    this.#reserve = o.reserve;
    this.#whilePeople = Math.max(1, o.whilePeople ?? 2);
    this.#holdMs = o.holdMs ?? 2000;
    this.#peopleIdle = o.peopleIdle ?? 0.5;
    this.#laneWithPeople = this.#whilePeople;
    this.#now = o.nowMs ?? (() => performance.now());
  }

  /** Slots a background scan must leave free. */
  get reserve(): number {
    return this.#reserve ?? Math.max(2, Math.ceil(this.#limit.concurrency / 4));
  }

  /** Background scans waiting for room. */
  get backgroundWaiting(): number {
    return this.#background.length;
  }

  /** Whether people's scans run now or ran less than holdMs ago. */
  get peopleScanning(): boolean {
    return this.#people > 0 || this.#now() - this.#peopleLeftAt < this.#holdMs;
  }

  #roomForBackground(): boolean {
    if (this.#limit.pendingCount > 0 || this.#limit.activeCount + this.#entering + this.reserve >= this.#limit.concurrency) return false;
    return !this.peopleScanning || this.#backgroundRunning + this.#entering < this.#laneWithPeople;
  }

  /**
   * Resolves when a background scan may start: nobody's scan is waiting and `reserve` slots
   * stay free. Start it right after with run(…, { background: true }), which counts it from
   * then on. Rejects with an AdmissionTimeout if `signal` aborts first.
   */
  roomForBackground(signal?: AbortSignal): Promise<void> {
    this.#watch();
    if (this.#background.length === 0 && this.#roomForBackground()) {
      this.#entering++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        wake: () => {
          signal?.removeEventListener('abort', entry.giveUp);
          this.#entering++;
          resolve();
        },
        giveUp: () => {
          const i = this.#background.indexOf(entry);
          if (i >= 0) this.#background.splice(i, 1);
          reject(new AdmissionTimeout('stopped while it waited for room'));
        },
      };
      if (signal?.aborted) return entry.giveUp();
      signal?.addEventListener('abort', entry.giveUp, { once: true });
      this.#background.push(entry);
    });
  }

  /** Lets waiting background scans in while there is room for them. */
  #wakeBackground(): void {
    // One at a time: each woken scan enters p-limit before the next check counts it.
    while (this.#background.length > 0 && this.#roomForBackground()) this.#background.shift()!.wake();
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
  run<T>(task: () => Promise<T>, signal?: AbortSignal, opts: { background?: boolean } = {}): Promise<T> {
    this.#watch();
    let entered = !opts.background;
    const enter = () => {
      if (entered) return;
      entered = true;
      this.#entering--;
    };
    // Each scan that ends may make room for a background one.
    const scan = () => {
      enter();
      if (opts.background) this.#backgroundRunning++;
      return task().finally(() => {
        if (opts.background) this.#backgroundRunning--;
        setImmediate(() => this.#wakeBackground());
      });
    };
    if (opts.background) signal?.addEventListener('abort', enter, { once: true });
    else {
      this.#people++;
      return this.#counted(this.#admit(scan, signal));
    }
    return this.#admit(scan, signal);
  }

  /** Counts a person's scan until it settles; the lane stays small for holdMs after the last. */
  async #counted<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } finally {
      if (--this.#people === 0) this.#peopleLeftAt = this.#now();
    }
  }

  #admit<T>(scan: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
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
    const waiting = this.#limit.pendingCount + this.#background.length;
    const allowed = this.#limit.concurrency;
    let next: number;
    if (running === 0 && waiting === 0) next = this.#min;
    else if (u < this.#busy) next = waiting > 0 ? allowed + Math.max(2, Math.ceil(allowed * (this.#busy - u) * 2)) : Math.min(allowed, 2 * running);
    else if (this.#saturatedSteps >= SATURATED_STEPS) next = Math.floor(Math.min(allowed, running) * 0.9);
    else next = Math.min(allowed, running);
    next = Math.min(this.#max, Math.max(this.#min, next));
    if (next !== allowed) this.#limit.concurrency = next;
    if (!this.peopleScanning || u >= this.#peopleIdle) this.#laneWithPeople = this.#whilePeople;
    else if (this.#background.length > 0) this.#laneWithPeople = Math.max(this.#laneWithPeople, this.#backgroundRunning) + 1;
    this.#wakeBackground();
    if (running === 0 && waiting === 0) this.#stopWatching();
  }

  close(): void {
    for (const waiter of [...this.#background]) waiter.giveUp();
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
