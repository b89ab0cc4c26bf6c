// The web form's progress board: what a browser's GET /scan/progress/{progressId} stream
// shows while its POST / runs. The page picks a random progress id, opens the stream, then
// submits the form with the id in it; the form handler reports the scan's phases here under
// that id. Either may come first: the board keeps, per id, the latest update of each phase
// and replays them to a stream that opens late.
//
// Bounded: at most `maxIds` ids (least recently used dropped, their streams ended) and
// `maxStreamsPerId` streams per id (the oldest ended). Nothing but phase names and counts
// is kept or sent; the id is the only link to a scan, and it never leaves the browser that
// chose it. Built once by the composition root; stop() ends every stream.
import { LRUCache } from 'lru-cache';
import type { ProgressUpdate } from './progress-relay.ts';

/** How a scan followed on the board ended; `failed` covers every error page. */
export type ProgressOutcome = 'complete' | 'failed';

export type BoardEvent = { type: 'phase'; update: ProgressUpdate } | { type: 'end'; outcome: ProgressOutcome };

/** One open stream. */
export interface BoardWatcher {
  send(e: BoardEvent): void;
  /** Ends the stream (the board dropped the id, or the service stops). */
  close(): void;
}

/** What the board shares with other instances (progress-share.ts), and applies from them. */
export type ShareEvent = { type: 'start' } | { type: 'phase'; update: ProgressUpdate } | { type: 'end'; outcome: ProgressOutcome };

/** Another instance's boards, reached through Redis; absent on a single instance. */
export interface ProgressShare {
  publish(id: string, e: ShareEvent): void;
  /** What the others have reported under `id`, oldest phase first, `end` last. */
  recall(id: string): Promise<ShareEvent[]>;
}

export interface ProgressReporter {
  update(u: ProgressUpdate): void;
  end(outcome: ProgressOutcome): void;
}

export interface ProgressBoardOptions {
  maxIds?: number;
  maxStreamsPerId?: number;
  /** Streams one client address may hold open at once (a page needs one; a few tabs, a few). */
  maxStreamsPerClient?: number;
  /** How long an id is remembered after its last use. */
  ttlMs?: number;
}

/** A progress id: a random (version 4) UUID in lower case, as crypto.randomUUID() makes it. */
export const PROGRESS_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Entry {
  latest: Map<string, ProgressUpdate>;
  ended: ProgressOutcome | null;
  /** A scan is reporting under this id now. */
  running: boolean;
  watchers: Set<BoardWatcher>;
}

export class ProgressBoard {
  readonly #entries: LRUCache<string, Entry>;
  readonly #maxStreams: number;
  readonly #maxPerClient: number;
  /** Open streams per client address; an address leaves the map with its last stream. */
  readonly #perClient = new Map<string, number>();
  #closed = false;
  #share: ProgressShare | undefined;

  constructor(o: ProgressBoardOptions = {}) {
    this.#maxStreams = o.maxStreamsPerId ?? 4;
    this.#maxPerClient = o.maxStreamsPerClient ?? 8;
    this.#entries = new LRUCache<string, Entry>({
      max: o.maxIds ?? 1000,
      ttl: o.ttlMs ?? 120_000,
      updateAgeOnGet: true,
      // An id pushed out (or replaced) takes its streams with it.
      dispose: (entry) => {
        for (const w of entry.watchers) w.close();
        entry.watchers.clear();
      },
    });
  }

  #entry(id: string): Entry {
    let e = this.#entries.get(id);
    if (!e) {
      e = { latest: new Map(), ended: null, running: false, watchers: new Set() };
      this.#entries.set(id, e);
    }
    return e;
  }

  /** Shares this board with other instances from now on (the composition root, when Redis is configured). */
  share(share: ProgressShare): void {
    this.#share = share;
  }

  /** Where the scan submitted with `id` reports to. A malformed id gets a reporter that drops everything. */
  reporter(id: string | undefined): ProgressReporter {
    if (!id || !PROGRESS_ID.test(id) || this.#closed) return { update: () => undefined, end: () => undefined };
    const start = this.#entry(id);
    // A reused id starts over.
    start.latest.clear();
    start.ended = null;
    start.running = true;
    this.#share?.publish(id, { type: 'start' });
    return {
      update: (u) => {
        const e = this.#entries.get(id);
        if (!e || e.ended) return;
        this.#phase(e, u);
        this.#share?.publish(id, { type: 'phase', update: u });
      },
      end: (outcome) => {
        const e = this.#entries.get(id);
        if (!e || e.ended) return;
        e.running = false;
        this.#end(e, outcome);
        this.#share?.publish(id, { type: 'end', outcome });
      },
    };
  }

  #phase(e: Entry, u: ProgressUpdate): void {
    e.latest.set(u.phase, u);
    for (const w of e.watchers) w.send({ type: 'phase', update: u });
  }

  #end(e: Entry, outcome: ProgressOutcome): void {
    e.ended = outcome;
    for (const w of e.watchers) {
      w.send({ type: 'end', outcome });
      w.close();
    }
    e.watchers.clear();
  }

  /**
   * Another instance's scan under `id` (progress-share.ts). Only ids someone watches here are
   * kept; a replayed update older than one already shown is dropped, so the counts never go back.
   */
  apply(id: string, event: ShareEvent): void {
    if (this.#closed || !PROGRESS_ID.test(id)) return;
    const e = this.#entries.get(id);
    if (!e || e.running) return; // nobody follows it here, or this instance runs it itself
    if (event.type === 'start') {
      e.latest.clear();
      e.ended = null;
    } else if (event.type === 'phase') {
      const shown = e.latest.get(event.update.phase);
      if (e.ended || (shown && (shown.status === 'done' || shown.done > event.update.done || (shown.done === event.update.done && shown.status === event.update.status)))) return;
      this.#phase(e, event.update);
    } else if (!e.ended) {
      this.#end(e, event.outcome);
    }
  }

  /**
   * Opens a stream on `id`: replays what the scan has done so far (all of it, then `end`,
   * when it is over), then sends each update as it comes. Returns the function that detaches
   * the stream.
   */
  watch(id: string, w: BoardWatcher): () => void {
    if (this.#closed) {
      w.close();
      return () => undefined;
    }
    const known = this.#entries.peek(id) !== undefined;
    const e = this.#entry(id);
    // New here: the scan may run on another instance, which may have reported already.
    if (!known && this.#share) void this.#share.recall(id).then((events) => { for (const ev of events) this.apply(id, ev); }, () => undefined);
    for (const u of e.latest.values()) w.send({ type: 'phase', update: u });
    if (e.ended) {
      w.send({ type: 'end', outcome: e.ended });
      w.close();
      return () => undefined;
    }
    if (e.watchers.size >= this.#maxStreams) {
      const oldest = e.watchers.values().next().value!;
      e.watchers.delete(oldest);
      oldest.close();
    }
    e.watchers.add(w);
    return () => {
      e.watchers.delete(w);
    };
  }

  /**
   * Admits one more stream from `client` (its address), or says no: without a bound, one
   * address could hold every slot of the board open until the scan deadline. Returns the
   * release to call when the stream closes.
   */
  admit(client: string): (() => void) | undefined {
    const open = this.#perClient.get(client) ?? 0;
    if (open >= this.#maxPerClient) return undefined;
    this.#perClient.set(client, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
    };
  }

  /** What a stream opening on `id` now would replay first (tests wait on it). */
  phases(id: string): ProgressUpdate[] {
    return [...(this.#entries.peek(id)?.latest.values() ?? [])];
  }

  /** Open streams (tests wait on this before submitting). */
  streams(id: string): number {
    return this.#entries.peek(id)?.watchers.size ?? 0;
  }

  /** Shutting down: ends the streams no scan reports to; the others end with their scan. */
  drain(): void {
    for (const e of this.#entries.values()) {
      if (e.running) continue;
      for (const w of e.watchers) w.close();
      e.watchers.clear();
    }
  }

  /** Ends every stream and forgets every id. */
  stop(): void {
    this.#closed = true;
    this.#entries.clear();
  }
}
