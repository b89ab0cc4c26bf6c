/**
 * Scan progress as the engine reports it: which phase is running and how many of its
 * requests are done. Only phase names and counts, never a URL, a domain or a body, so a
 * listener can show it to anyone who holds the progress id. A sink that throws is ignored:
 * progress never changes a scan.
 */

/** The phases in the order they start: round one (robots.txt, each network's grid, the site files), then follow-ups, then scoring. */
export const SCAN_PHASES = ['robots', 'grid-networkA', 'grid-networkB', 'files', 'followups', 'scoring'] as const;
export type ScanPhase = (typeof SCAN_PHASES)[number];

export interface ScanProgress {
  phase: ScanPhase;
  status: 'running' | 'done';
  /** Requests (or steps) of the phase finished so far, and in all. */
  done: number;
  total: number;
}

export type ProgressSink = (p: ScanProgress) => void;

/** Counts one phase's finished requests; `done` is sent once every one is in and the total is final. */
export class PhaseCounter {
  readonly #sink: ProgressSink | undefined;
  readonly #phase: ScanPhase;
  #done = 0;
  #total: number;
  #final: boolean;

  constructor(sink: ProgressSink | undefined, phase: ScanPhase, total: number, final = true) {
    this.#sink = sink;
    this.#phase = phase;
    this.#total = total;
    this.#final = final;
    this.#emit();
  }

  /** Counts `p` when it settles, and passes it through unchanged. */
  track<T>(p: Promise<T>): Promise<T> {
    void p.then(() => this.tick(), () => this.tick());
    return p;
  }

  tick(): void {
    this.#done++;
    this.#emit();
  }

  /** More work joined the phase (`final`: no more will). */
  add(n: number, final = true): void {
    const finishes = final && !this.#final && this.#done >= this.#total + n;
    this.#total += n;
    this.#final = final;
    if (n > 0 || finishes) this.#emit();
  }

  #emit(): void {
    if (!this.#sink) return;
    const finished = this.#final && this.#done >= this.#total;
    try {
      this.#sink({ phase: this.#phase, status: finished ? 'done' : 'running', done: Math.min(this.#done, this.#total), total: this.#total });
    } catch {
      // A listener's failure is the listener's: the scan goes on.
    }
  }
}
