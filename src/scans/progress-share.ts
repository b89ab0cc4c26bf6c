// The progress board shared between instances through Redis. Behind a load balancer the
// browser's stream (GET /scan/progress/{id}) and its form post (POST /) may land on different
// instances; without this the stream would show only "waiting". Each instance publishes what
// its own scans report (phase names and counts, keyed by the browser's random progress id,
// never a domain or a lead) and applies what the others publish to its board. The latest
// update of each phase is also kept in a short-lived hash, so a stream that opens late on
// another instance is replayed from it. Best effort: a Redis outage only loses the display,
// never the scan.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { SCAN_PHASES } from '../scanner/progress.ts';
import type { ProgressShare, ShareEvent } from './progress-board.ts';
import type { ProgressUpdate } from './progress-relay.ts';

interface Wire { from: string; id: string; event: ShareEvent }

/** Phases replay in the order a scan runs them (a hash keeps no order). */
const ORDER: readonly string[] = ['coalesced', 'queued', ...SCAN_PHASES];

export interface RedisProgressShareOptions {
  /** Commands and publishing; its keyPrefix applies to the hash. */
  redis: Redis;
  /** A connection of its own: a subscribed ioredis connection accepts no other command. */
  subscriber: Redis;
  /** Channel name (Redis applies no keyPrefix to channels, so the caller prefixes it). */
  channel: string;
  /** How long an id's hash outlives its last update. */
  ttlMs: number;
  log: Logger;
}

/**
 * The share's own connection, from the instance's client. ioredis's own resubscription on a
 * reconnect sends SUBSCRIBE without handling its failure: with the offline queue off, a
 * connection lost again at that moment was an unhandled rejection. `start` subscribes again
 * on every 'ready' itself, and handles it.
 */
export function progressSubscriber(redis: Redis): Redis {
  return redis.duplicate({ autoResubscribe: false });
}

export class RedisProgressShare implements ProgressShare {
  readonly #o: RedisProgressShareOptions;
  /** Tells this instance's own messages from the others'. */
  readonly #instance = randomUUID();
  readonly #ttlS: number;

  constructor(o: RedisProgressShareOptions) {
    this.#o = o;
    this.#ttlS = Math.max(1, Math.ceil(o.ttlMs / 1000));
  }

  /**
   * Subscribes, and again whenever the connection comes back; `apply` gets every other
   * instance's events. Resolves once first subscribed.
   */
  start(apply: (id: string, e: ShareEvent) => void): Promise<void> {
    this.#o.subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.#o.channel) return;
      let m: Wire;
      try {
        m = JSON.parse(raw) as Wire;
      } catch {
        return;
      }
      if (m.from !== this.#instance && typeof m.id === 'string' && m.event && typeof m.event === 'object') apply(m.id, m.event);
    });
    const sub = this.#o.subscriber;
    return new Promise<void>((resolve) => {
      // Without an offline queue a command sent before the connection is ready fails at once.
      const subscribe = () => void sub.subscribe(this.#o.channel).then(() => resolve(), (err: unknown) => this.#o.log.debug({ err: (err as Error).message }, 'progress channel not subscribed yet'));
      sub.on('ready', subscribe);
      if (sub.status === 'ready') subscribe();
    });
  }

  publish(id: string, event: ShareEvent): void {
    const key = `progress:${id}`;
    const r = this.#o.redis.multi();
    if (event.type === 'start') r.del(key);
    else if (event.type === 'phase') r.hset(key, `phase:${event.update.phase}`, JSON.stringify(event.update));
    else r.hset(key, 'end', event.outcome);
    r.expire(key, this.#ttlS);
    r.publish(this.#o.channel, JSON.stringify({ from: this.#instance, id, event } satisfies Wire));
    r.exec().catch((err: unknown) => this.#o.log.debug({ err: (err as Error).message }, 'progress not shared'));
  }

  /** What the other instances have reported under `id`, in phase order, `end` last. */
  async recall(id: string): Promise<ShareEvent[]> {
    let h: Record<string, string>;
    try {
      h = await this.#o.redis.hgetall(`progress:${id}`);
    } catch {
      return [];
    }
    const phases: ProgressUpdate[] = [];
    for (const [field, value] of Object.entries(h)) {
      if (!field.startsWith('phase:')) continue;
      try {
        phases.push(JSON.parse(value) as ProgressUpdate);
      } catch {
        // a value we did not write: skip it
      }
    }
    phases.sort((a, b) => ORDER.indexOf(a.phase) - ORDER.indexOf(b.phase));
    const out: ShareEvent[] = phases.map((update) => ({ type: 'phase', update }));
    if (h.end === 'complete' || h.end === 'failed') out.push({ type: 'end', outcome: h.end });
    return out;
  }

  stop(): void {
    this.#o.subscriber.disconnect();
  }
}
