/**
 * TLS session resumption per server name, for one egress.
 *
 * undici keeps TLS sessions only through WeakRefs, so under load they are collected before the
 * next connection asks: in 100 concurrent scans not one of 1,616 connections resumed
 * (bench/results.md). And a scan opens its connections to a site all at once, before any session
 * exists. This store keeps the latest session per name (a bounded LRU) and holds connections to a
 * name with no session yet behind the first handshake, so a scan's connections to a site make one
 * full handshake (certificate chain sent and verified) and resume the rest. What the site is asked
 * is unchanged: the same requests, on the same number of connections.
 */
import type { TLSSocket } from 'node:tls';
import { LRUCache } from 'lru-cache';
import { buildConnector } from 'undici';

/** Sessions are kept as long as dispatchers are (src/net/dispatchers.ts); servers bound a ticket's life themselves. */
const MAX_NAMES = 2048;
const SESSION_TTL_MS = 10 * 60_000;
/**
 * A TLS 1.3 server sends its tickets just after the handshake. Waiting connections are released
 * when the first ticket arrives, or when as long again as the first handshake took has passed
 * without one (a server that issues none), so a site without tickets is never serialised. The
 * floor is for loopback handshakes of a few milliseconds (the test world), whose ticket a busy
 * event loop may read later than that; a real site's handshake takes longer than the floor.
 */
const MIN_TICKET_WAIT_MS = 100;

/**
 * The session in a buffer of its own. Node hands a session (about 1.2 KiB) as a slice of a
 * 64 KiB ArrayBuffer it read it into, so keeping the slice kept all 64 KiB: 2,048 names on
 * each of two networks grew the resident size of a 5,000-item batch by about 50 MiB before the
 * cache filled (heap snapshots, bench/results.md). allocUnsafeSlow, not Buffer.from: a copy
 * from Buffer's shared 8 KiB pool would keep a slab alive for each session the same way.
 */
function own(session: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(session.length);
  session.copy(copy);
  return copy;
}

export class TlsSessions {
  readonly #sessions = new LRUCache<string, Buffer>({ max: MAX_NAMES, ttl: SESSION_TTL_MS });
  /** Names whose first handshake is under way, with the release of connections waiting for it. */
  readonly #first = new Map<string, Promise<void>>();
  #resumed = 0;
  #full = 0;

  /** Connections that resumed a session, and that made a full handshake, so far. */
  get resumed(): number { return this.#resumed; }
  get full(): number { return this.#full; }

  /**
   * Wraps `connect`, a connector built afresh per connection with the session to offer
   * (undici fixes a connector's session when it is built).
   */
  connector(servername: string, build: (session: Buffer | undefined) => buildConnector.connector): buildConnector.connector {
    return (opts, callback) => {
      const session = this.#sessions.get(servername);
      const first = this.#first.get(servername);
      if (session || !first) return this.#dial(servername, session, build, opts, callback, !session);
      void first.then(() => this.#dial(servername, this.#sessions.get(servername), build, opts, callback, false));
    };
  }

  #dial(servername: string, session: Buffer | undefined, build: (session: Buffer | undefined) => buildConnector.connector,
    opts: buildConnector.Options, callback: buildConnector.Callback, leads: boolean): void {
    let release = (): void => undefined;
    if (leads) {
      const gate = new Promise<void>((resolve) => {
        release = () => {
          if (this.#first.get(servername) === gate) this.#first.delete(servername);
          resolve();
        };
      });
      this.#first.set(servername, gate);
    }
    const started = performance.now();
    build(session)(opts, (err, socket) => {
      if (err || !socket) {
        release();
        return callback(err ?? new Error('no socket'), null);
      }
      const tls = socket as TLSSocket;
      if (typeof tls.isSessionReused === 'function') {
        if (tls.isSessionReused()) this.#resumed++;
        else this.#full++;
        this.#keep(servername, tls, release, performance.now() - started);
      } else {
        release();
      }
      callback(null, socket);
    });
  }

  /** Remembers the socket's session(s); releases waiters on the first, on close, or after the wait bound. */
  #keep(servername: string, socket: TLSSocket, release: () => void, handshakeMs: number): void {
    socket.on('session', (s: Buffer) => {
      this.#sessions.set(servername, own(s));
      release();
    });
    // TLS 1.2 delivers its session during the handshake, before this point.
    if (socket.getProtocol() !== 'TLSv1.3') {
      const s = socket.getSession();
      if (s) this.#sessions.set(servername, own(s));
      return release();
    }
    socket.once('close', release);
    // Released after this turn's I/O (setImmediate), so a ticket that arrived by the time the
    // timer fires is read first: timers run before the event loop polls for I/O.
    setTimeout(() => setImmediate(release), Math.max(MIN_TICKET_WAIT_MS, handshakeMs)).unref();
  }
}
