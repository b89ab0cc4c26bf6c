// The service log's destination: stdout, written in batches.
//
// pino's own destination (sonic-boom) measures its whole pending buffer again on every line
// (Buffer.byteLength of a string grown by `+=`, which V8 flattens, copying it), and in its
// asynchronous mode every batch crosses the thread pool to be written: 2.2-2.7 µs per line
// against 0.4-0.5 µs here, about 2 µs of a cached read's 45 (bench/results.md). Here lines are gathered
// in an array and handed to sonic-boom as one string per batch (12 KiB, or whatever is pending
// 200 ms after a batch's first line), which it writes at once with one write(2), retrying a
// non-blocking pipe's EAGAIN as it does for every synchronous destination. Nothing is ever
// pending inside sonic-boom, so nothing there can be lost; what is pending here is written on
// flush, on end, and when the process exits (on-exit-leak-free, as pino does for its own
// asynchronous destinations), an uncaught exception's exit included. Only a SIGKILL can lose
// the last 200 ms. The trade: a reader of stdout that stops reading holds the service at its
// next batch, as pino's default (synchronous) destination would, where the asynchronous one
// grew its buffer without bound.
import onExit from 'on-exit-leak-free';
import { pino } from 'pino';

export interface LogDestinationOptions {
  /** The file descriptor written to: stdout unless given. */
  fd?: number;
  /** A batch is written once this many characters are pending. */
  batchChars?: number;
  /** ...or this long after its first line, whichever comes first. */
  maxDelayMs?: number;
}

const BATCH_CHARS = 12 * 1024;
const MAX_DELAY_MS = 200;

export class BatchedLogDestination {
  readonly #out: ReturnType<typeof pino.destination>;
  readonly #batchChars: number;
  readonly #maxDelayMs: number;
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | undefined;
  #ended = false;

  constructor(options: LogDestinationOptions = {}) {
    this.#batchChars = options.batchChars ?? BATCH_CHARS;
    this.#maxDelayMs = options.maxDelayMs ?? MAX_DELAY_MS;
    this.#out = pino.destination({ dest: options.fd ?? 1, sync: true });
    // Held weakly: a destination dropped without end() is collected, its hook with it.
    onExit.register(this, (self) => self.flush());
  }

  /** pino's stream interface: one serialised line (or several) at a time. */
  write(line: string): boolean {
    if (this.#ended) return false;
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= this.#batchChars) this.flush();
    // unref: a pending batch never holds the process open; exit writes it.
    else this.#timer ??= setTimeout(() => this.flush(), this.#maxDelayMs).unref();
    return true;
  }

  /** Writes what is pending now. The callback (pino's logger.flush) is called once it is written. */
  flush(cb?: (err?: Error) => void): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#lines.length > 0) {
      const batch = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
      this.#lines = [];
      this.#chars = 0;
      this.#out.write(batch);
    }
    cb?.();
  }

  /** For a caller that flushes as it would a sonic-boom; the writes here are synchronous anyway. */
  flushSync(): void {
    this.flush();
  }

  /** Writes what is pending and stops: later lines are dropped. The descriptor stays open (it is stdout). */
  end(): void {
    if (this.#ended) return;
    this.flush();
    this.#ended = true;
    onExit.unregister(this);
  }
}
