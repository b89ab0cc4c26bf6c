// Progress of scans in flight on this instance, per coalescing key: the scan that runs tells
// its relay, and every request sharing that scan (the one that started it and any that
// joined it while it ran) hears it. A request that joins late first hears where the scan is.
// Only phase names and counts pass through here, never a domain or a lead.
import type { ScanPhase, ScanProgress } from '../scanner/progress.ts';

/**
 * An engine phase, `coalesced` (this request waits for an identical scan already running) or
 * `queued` (the scan waits for room on this instance before it starts, src/scans/admission.ts).
 */
export interface ProgressUpdate extends Omit<ScanProgress, 'phase'> { phase: ScanPhase | 'coalesced' | 'queued' }
export type ProgressListener = (u: ProgressUpdate) => void;

export const WAITING: ProgressUpdate = { phase: 'coalesced', status: 'running', done: 0, total: 1 };
export const JOINED: ProgressUpdate = { phase: 'coalesced', status: 'done', done: 1, total: 1 };
export const QUEUED: ProgressUpdate = { phase: 'queued', status: 'running', done: 0, total: 1 };
export const ADMITTED: ProgressUpdate = { phase: 'queued', status: 'done', done: 1, total: 1 };

export function tell(listener: ProgressListener | undefined, u: ProgressUpdate): void {
  if (!listener) return;
  try {
    listener(u);
  } catch {
    // A listener's failure is the listener's: the scan goes on.
  }
}

class Relay {
  readonly listeners = new Set<ProgressListener>();
  /** The latest update of each phase, in the order the phases started. */
  readonly latest = new Map<string, ProgressUpdate>();
  /** Requests following this key now; the first of them runs the scan (Coalescer.share). */
  followers = 0;

  emit = (p: ProgressUpdate): void => {
    this.latest.set(p.phase, p);
    for (const l of this.listeners) tell(l, p);
  };
}

export class ProgressRelays {
  readonly #relays = new Map<string, Relay>();

  /**
   * Follows the scan of `key` for the duration of `work`, which gets the sink the scan
   * reports to should this request be the one that runs it. A request that finds an identical
   * scan already followed here is told it waits (`coalesced`), then what that scan has done
   * so far. The scan reports to the relay even when its own request listens to nothing, so
   * that requests joining it hear it.
   */
  async follow<T>(key: string, listener: ProgressListener | undefined, work: (sink: ProgressListener) => Promise<T>): Promise<T> {
    let relay = this.#relays.get(key);
    if (!relay) this.#relays.set(key, (relay = new Relay()));
    const r = relay;
    if (listener) {
      if (r.followers > 0) {
        tell(listener, WAITING);
        for (const u of r.latest.values()) tell(listener, u);
      }
      r.listeners.add(listener);
    }
    r.followers++;
    try {
      return await work(r.emit);
    } finally {
      r.followers--;
      if (listener) r.listeners.delete(listener);
      if (r.followers === 0 && this.#relays.get(key) === r) this.#relays.delete(key);
    }
  }

  /** Keys followed now (tests). */
  get size(): number {
    return this.#relays.size;
  }
}
