// TLS session resumption per site: in the world through a real proxy (the site itself says
// whether each connection resumed), and the gate's rules with scripted connections.
import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { startWorld, type World } from '../world/index.ts';
import { createEgress, type ProbeRequest } from '../../src/net/egress.ts';
import { TlsSessions } from '../../src/net/tls-sessions.ts';

let world: World;
before(async () => {
  world = await startWorld({
    scenarios: [],
    handlers: { resumed: (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(String((req.socket as TLSSocket).isSessionReused())) },
  });
});
after(async () => { await world.stop(); });

const req = (url: string): ProbeRequest => ({ url, timeoutMs: 10_000, maxBodyBytes: 1024, maxRedirects: 0 });
const answers = async (n: number, egress: ReturnType<typeof createEgress>, host: string) =>
  (await Promise.all(Array.from({ length: n }, () => egress.fetch(req(`https://${host}/`))))).map((r) => (r.ok ? r.body.toString() : r.errorCode));

describe('TLS sessions through the world', () => {
  test('tls sessions: eight connections opened at once to one site resume the first one\'s session instead of eight full handshakes', async () => {
    const e = createEgress({ name: 'networkA', proxyUrl: world.proxies.networkA, resolve: world.resolveOverrides, ca: world.ca, connections: 8 });
    try {
      const got = await answers(8, e, 'resumed.world-fixtures.com');
      assert.equal(got.filter((a) => a !== 'true' && a !== 'false').length, 0, got.join());
      // undici alone resumed none: every connection started before any session existed. One
      // full handshake is the rule; a loaded machine may let a waiter's bound (as long as the
      // first handshake took) pass before the ticket is read, hence a little room.
      assert.ok(got.filter((a) => a === 'true').length >= 5, `too few connections resumed: ${got.join()}`);
    } finally {
      await e.close();
    }
  });

  test('tls sessions: once a site has given a session, every new connection to it resumes', async () => {
    const e = createEgress({ name: 'networkB', proxyUrl: world.proxies.networkB, resolve: world.resolveOverrides, ca: world.ca, connections: 8 });
    try {
      assert.deepEqual(await answers(1, e, 'resumed.world-fixtures.com'), ['false']);
      // The kept-alive first connection answers one; the seven new ones resume its session.
      const got = await answers(8, e, 'resumed.world-fixtures.com');
      assert.deepEqual(got.toSorted(), ['false', ...Array(7).fill('true')], got.join());
    } finally {
      await e.close();
    }
  });

  test('tls sessions: a session is only offered to the name it came from', async () => {
    const e = createEgress({ name: 'networkA', proxyUrl: world.proxies.networkA, resolve: world.resolveOverrides, ca: world.ca, connections: 8 });
    try {
      assert.deepEqual(await answers(1, e, 'resumed.world-fixtures.com'), ['false']);
      assert.deepEqual(await answers(1, e, 'resumed--2.world-fixtures.com'), ['false']);
    } finally {
      await e.close();
    }
  });
});

/** A scripted connection: what a connector built for one dial hands back, and when. */
class FakeTls extends EventEmitter {
  readonly offered: Buffer | undefined;
  readonly protocol: string;
  constructor(offered: Buffer | undefined, protocol = 'TLSv1.3') {
    super();
    this.offered = offered;
    this.protocol = protocol;
  }
  isSessionReused() { return this.offered !== undefined; }
  getProtocol() { return this.protocol; }
  getSession() { return this.protocol === 'TLSv1.3' ? undefined : Buffer.from('tls12-session'); }
}

function scripted(protocol = 'TLSv1.3') {
  const dials: Array<{ offered: Buffer | undefined; finish: (err?: Error) => FakeTls }> = [];
  const build = (session: Buffer | undefined): buildConnector.connector => (_opts, callback) => {
    const socket = new FakeTls(session, protocol);
    dials.push({ offered: session, finish: (err) => { if (err) callback(err, null); else callback(null, socket as unknown as TLSSocket); return socket; } });
  };
  return { dials, build };
}

const opts = { hostname: '11.22.33.10', protocol: 'https:', port: '443' };
const connect = (sessions: TlsSessions, build: (s: Buffer | undefined) => buildConnector.connector, name = 'site.example') =>
  new Promise<unknown>((resolve, reject) => sessions.connector(name, build)(opts, (err, socket) => (err ? reject(err) : resolve(socket))));
const settle = () => new Promise((r) => setImmediate(r));

describe('TlsSessions gate', () => {
  test('tls gate: the first connection to a name leads, the others wait and are offered its ticket', async () => {
    const sessions = new TlsSessions();
    const { dials, build } = scripted();
    const all = [connect(sessions, build), connect(sessions, build), connect(sessions, build)];
    await settle();
    assert.equal(dials.length, 1, 'only the first dials before a session exists');
    const first = dials[0]!.finish();
    await settle();
    assert.equal(dials.length, 1, 'a finished handshake without a ticket yet still holds the others');
    first.emit('session', Buffer.from('ticket-1'));
    await settle();
    assert.equal(dials.length, 3);
    assert.deepEqual(dials.slice(1).map((d) => d.offered?.toString()), ['ticket-1', 'ticket-1']);
    for (const d of dials.slice(1)) d.finish();
    await Promise.all(all);
    assert.deepEqual({ full: sessions.full, resumed: sessions.resumed }, { full: 1, resumed: 2 });
  });

  test('tls gate: a failed first connection releases the others, which connect without a session', async () => {
    const sessions = new TlsSessions();
    const { dials, build } = scripted();
    const first = connect(sessions, build);
    const second = connect(sessions, build);
    await settle();
    dials[0]!.finish(new Error('ECONNRESET'));
    await assert.rejects(first, /ECONNRESET/);
    await settle();
    assert.equal(dials.length, 2);
    assert.equal(dials[1]!.offered, undefined);
    dials[1]!.finish();
    await second;
  });

  test('tls gate: a TLS 1.3 site that sends no ticket does not hold the others for longer than its handshake took', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const sessions = new TlsSessions();
      const { dials, build } = scripted();
      const all = [connect(sessions, build), connect(sessions, build)];
      await settle();
      dials[0]!.finish();
      await settle();
      assert.equal(dials.length, 1);
      mock.timers.tick(60_000);
      await settle();
      assert.equal(dials.length, 2);
      assert.equal(dials[1]!.offered, undefined);
      dials[1]!.finish();
      await Promise.all(all);
    } finally {
      mock.timers.reset();
    }
  });

  test('tls gate: a TLS 1.2 session is known at the handshake and released at once', async () => {
    const sessions = new TlsSessions();
    const { dials, build } = scripted('TLSv1.2');
    const all = [connect(sessions, build), connect(sessions, build)];
    await settle();
    dials[0]!.finish();
    await settle();
    assert.equal(dials[1]?.offered?.toString(), 'tls12-session');
    dials[1]!.finish();
    await Promise.all(all);
  });

  test('tls gate: a session is kept in a buffer of its own, not as a slice holding the buffer it was read into', async () => {
    const sessions = new TlsSessions();
    const { dials, build } = scripted();
    const first = connect(sessions, build);
    await settle();
    // As Node hands it: about 1.2 KiB at an offset in a 64 KiB ArrayBuffer.
    const arena = Buffer.alloc(65_536, 7);
    const ticket = arena.subarray(4464, 4464 + 1202);
    dials[0]!.finish().emit('session', ticket);
    await first;
    const second = connect(sessions, build);
    await settle();
    const offered = dials[1]!.offered!;
    assert.ok(offered.equals(ticket), 'the same session bytes are offered');
    assert.equal(offered.buffer.byteLength, 1202, 'the kept copy holds only the session');
    dials[1]!.finish();
    await second;
  });

  test('tls gate: names do not share sessions or gates', async () => {
    const sessions = new TlsSessions();
    const { dials, build } = scripted();
    const a = connect(sessions, build, 'a.example');
    const b = connect(sessions, build, 'b.example');
    await settle();
    assert.equal(dials.length, 2, 'each name has its own first connection');
    dials[0]!.finish().emit('session', Buffer.from('ticket-a'));
    dials[1]!.finish().emit('close'); // no ticket, and gone: nothing left to wait for
    await Promise.all([a, b]);
    const c = connect(sessions, build, 'b.example');
    await settle();
    assert.equal(dials[2]!.offered, undefined);
    dials[2]!.finish();
    await c;
  });
});
