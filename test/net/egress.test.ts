// Guarded egress end to end through the test world's proxies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { EventEmitter, once } from 'node:events';
import { createHash } from 'node:crypto';
import { startWorld, type World } from '../world/index.ts';
import { createEgress, type ProbeRequest } from '../../src/net/egress.ts';

let world: World;
/** Text that compresses poorly (a hash chain), so its gzip is as large as the decoder's buffers many times over. */
const BIG_TEXT = Buffer.concat(Array.from({ length: 2 ** 16 }, (_, i) => createHash('sha256').update(String(i)).digest()));
/** How the slow redirect's response ended on the site's side. */
const redirectEnds = new EventEmitter();
before(async () => {
  world = await startWorld({
    scenarios: [],
    handlers: {
      echo: (req, res, info) => res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1; Path=/', 'b=2'] }).end(`${info.network} ${req.headers.host} ${req.headers['user-agent']}`),
      big: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000)),
      bomb: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(20_000_000))),
      exact: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000)),
      // The redirect's body arrives after its headers, as a slow origin sends it.
      'slow-redirect': (req, res) => {
        if (req.url === '/landed') return res.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
        res.on('close', () => redirectEnds.emit('closed', res.writableFinished ? 'sent whole' : 'cut off'));
        res.writeHead(302, { location: '/landed', 'content-type': 'text/plain', 'content-length': '5' });
        res.flushHeaders();
        setTimeout(() => res.end('moved'), 30);
      },
      // Half a gzip stream, then nothing: the deadline must cut it.
      'stalled-gzip': (_req, res) => {
        const whole = gzipSync(Buffer.from('y'.repeat(100_000)));
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.write(whole.subarray(0, whole.length >> 1));
      },
      // 2 MB that gzip barely shrinks, so the decoder fills and undici must pause and resume.
      'big-gzip': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(BIG_TEXT)),
      'not-modified': (_req, res) => res.writeHead(304, { 'content-encoding': 'gzip', etag: '"x"' }).end(),
      'to-internal': (_req, res) => res.writeHead(302, { location: 'https://internal.world-fixtures.com/' }).end(),
      'to-ip': (_req, res) => res.writeHead(302, { location: 'https://0x7f000001/' }).end(),
      chain: (req, res) => {
        const n = Number(new URL(req.url ?? '/', 'https://x').searchParams.get('n') ?? '0');
        res.writeHead(302, { location: `/?n=${n + 1}` }).end();
      },
      sse: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /mcp\n\n');
        // never ends: the reader must stop on its own
      },
    },
  });
});
after(async () => { await world.stop(); });

const req = (url: string, extra: Partial<ProbeRequest> = {}): ProbeRequest => ({ url, timeoutMs: 3000, maxBodyBytes: 64 * 1024, maxRedirects: 5, ...extra });

describe('egress through the world', () => {
  test('egress: each network leaves from its own source address, Host and SNI carry the name', async () => {
    const { networkA, networkB, user } = world.egress();
    for (const [e, want] of [[networkA, 'networkA'], [networkB, 'networkB'], [user, 'user']] as const) {
      const r = await e.fetch(req('https://echo.world-fixtures.com/', { headers: { 'user-agent': 'probe/1' } }));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.body.toString(), `${want} echo.world-fixtures.com probe/1`);
      assert.deepEqual(r.setCookieNames, ['a', 'b']);
    }
  });

  test('egress: the proxy is asked to CONNECT to the checked address, never the name (no DNS rebinding window)', async () => {
    const { networkA } = world.egress();
    const before = world.proxyLogs.networkA.seen.length;
    await networkA.fetch(req('https://echo.world-fixtures.com/'));
    const seen = world.proxyLogs.networkA.seen.slice(before);
    assert.ok(seen.length >= 1);
    for (const line of seen) assert.equal(line, 'CONNECT 11.22.33.10:443');
  });

  test('egress with proxyResolvesNames (the CLI behind a proxy): CONNECT by name, no local resolution, reserved names and IP literals still refused', async () => {
    // No `resolve` overrides at all: only the proxy knows the world's names.
    const e = createEgress({ name: 'user', proxyUrl: world.proxies.user, proxyResolvesNames: true, ca: world.ca, dnsLookup: async () => { throw new Error('no local DNS may be asked'); } });
    try {
      const before = world.proxyLogs.user.seen.length;
      const r = await e.fetch(req('https://echo.world-fixtures.com/'));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.body.toString().split(' ')[0], 'user');
      assert.deepEqual(world.proxyLogs.user.seen.slice(before), ['CONNECT echo.world-fixtures.com:443']);
      // What a public-looking name resolves to is the proxy's business (the caller's own network): here it cannot route it.
      const internal = await e.fetch(req('https://to-internal.world-fixtures.com/'));
      assert.equal(!internal.ok && internal.errorCode, 'PROXY');
      for (const url of ['https://to-ip.world-fixtures.com/', 'https://localhost/', 'https://printer.corp/']) {
        const refused = await e.fetch(req(url));
        assert.equal(!refused.ok && refused.errorCode, 'GUARD_REFUSED', url);
      }
    } finally {
      await e.close();
    }
  });

  test('egress: bodies stop at the cap and say so', async () => {
    const r = await world.egress().networkA.fetch(req('https://big.world-fixtures.com/', { maxBodyBytes: 10_000 }));
    assert.ok(r.ok);
    assert.equal(r.body.length, 10_000);
    assert.equal(r.bodyTruncated, true);
  });

  test('egress: a body exactly at the cap is whole, one byte over it is truncated', async () => {
    const e = world.egress().networkA;
    const whole = await e.fetch(req('https://exact.world-fixtures.com/', { maxBodyBytes: 10_000 }));
    assert.ok(whole.ok);
    assert.equal(whole.body.length, 10_000);
    assert.equal(whole.bodyTruncated, false);
    const cut = await e.fetch(req('https://exact.world-fixtures.com/', { maxBodyBytes: 9_999 }));
    assert.ok(cut.ok);
    assert.equal(cut.body.length, 9_999);
    assert.equal(cut.bodyTruncated, true);
  });

  test('egress: a redirect body is read and dropped, not cut off with the connection', async () => {
    const ended = once(redirectEnds, 'closed');
    const r = await world.egress().networkA.fetch(req('https://slow-redirect.world-fixtures.com/'));
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.body.toString(), 'landed');
    assert.deepEqual(r.redirects, ['https://slow-redirect.world-fixtures.com/landed']);
    assert.deepEqual(await ended, ['sent whole']);
  });

  test('egress: the deadline cuts a compressed body as it cuts a plain one (TIMEOUT, not a short page)', async () => {
    const r = await world.egress().networkA.fetch(req('https://stalled-gzip.world-fixtures.com/', { timeoutMs: 500, headers: { 'accept-encoding': 'gzip' } }));
    assert.equal(r.ok, false, JSON.stringify(r).slice(0, 300));
    assert.equal(!r.ok && r.errorCode, 'TIMEOUT');
  });

  test('egress: a large compressed body is decoded whole, the transfer paused while the decoder is full', async () => {
    const r = await world.egress().networkA.fetch(req('https://big-gzip.world-fixtures.com/', { maxBodyBytes: 4 * 1024 * 1024, headers: { 'accept-encoding': 'gzip' } }));
    assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
    assert.equal(r.bodyTruncated, false);
    assert.equal(r.body.length, BIG_TEXT.length);
    assert.ok(r.body.equals(BIG_TEXT));
  });

  test('egress: a gzip bomb is capped on decoded bytes', async () => {
    const r = await world.egress().networkA.fetch(req('https://bomb.world-fixtures.com/', { maxBodyBytes: 50_000, headers: { 'accept-encoding': 'gzip' } }));
    assert.ok(r.ok);
    assert.equal(r.body.length, 50_000);
    assert.equal(r.bodyTruncated, true);
  });

  test('egress: 304 and HEAD carry no body, even with a content-encoding header, and keep the connection usable', async () => {
    const e = world.egress().networkA;
    for (const r of [await e.fetch(req('https://not-modified.world-fixtures.com/')), await e.fetch(req('https://big.world-fixtures.com/', { method: 'HEAD' }))]) {
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.body.length, 0);
      assert.equal(r.bodyTruncated, false);
    }
    const after = await e.fetch(req('https://echo.world-fixtures.com/'));
    assert.ok(after.ok);
  });

  test('egress: every redirect hop is guarded again (internal name and IP literal refused)', async () => {
    const e = world.egress().networkA;
    const a = await e.fetch(req('https://to-internal.world-fixtures.com/'));
    assert.equal(a.ok, false);
    assert.equal(!a.ok && a.errorCode, 'GUARD_REFUSED');
    assert.deepEqual(a.redirects, ['https://internal.world-fixtures.com/']);
    const b = await e.fetch(req('https://to-ip.world-fixtures.com/'));
    assert.equal(!b.ok && b.errorCode, 'GUARD_REFUSED');
  });

  test('egress: more than five redirects is REDIRECT_LIMIT, whatever the caller asked', async () => {
    const r = await world.egress().networkA.fetch(req('https://chain.world-fixtures.com/', { maxRedirects: 50 }));
    assert.equal(!r.ok && r.errorCode, 'REDIRECT_LIMIT');
    assert.equal(r.redirects.length, 6);
  });

  test('egress: refused names and addresses never reach a proxy', async () => {
    const e = world.egress().networkA;
    const before = world.proxyLogs.networkA.seen.length;
    for (const url of ['https://localhost/', 'https://127.0.0.1/', 'https://internal.world-fixtures.com/', 'https://2130706433/', 'https://[::1]/']) {
      const r = await e.fetch(req(url));
      assert.equal(!r.ok && r.errorCode, 'GUARD_REFUSED', url);
    }
    assert.equal(world.proxyLogs.networkA.seen.length, before);
  });

  test('egress: stopWhen ends an endless stream early', async () => {
    const r = await world.egress().networkA.fetch(req('https://sse.world-fixtures.com/', { stopWhen: (b) => b.includes('data: /mcp') }));
    assert.ok(r.ok);
    assert.match(r.body.toString(), /event: endpoint/);
  });

  test('egress: failures are values with stable codes (down, timeout, unconfigured)', async () => {
    const { networkA, networkB } = world.egress({ networkB: 'unconfigured' });
    const down = await networkA.fetch(req('https://down.world-fixtures.com/'));
    assert.equal(!down.ok && down.errorCode, 'PROXY');
    const hang = await networkA.fetch(req('https://hang.world-fixtures.com/', { timeoutMs: 200 }));
    assert.equal(!hang.ok && hang.errorCode, 'TIMEOUT');
    // A ceiling, not a speed claim: the host never answers, so anything bounded shows the timeout
    // held; the margin leaves room for a loaded machine.
    assert.ok(hang.timingMs < 10_000, `the timeout did not hold (${hang.timingMs} ms)`);
    assert.equal(networkB.configured, false);
    const un = await networkB.fetch(req('https://echo.world-fixtures.com/'));
    assert.equal(!un.ok && un.errorCode, 'UNCONFIGURED');
  });

  test('egress: a certificate from an untrusted CA is a TLS failure', async () => {
    const untrusting = createEgress({ name: 'networkA', proxyUrl: world.proxies.networkA, resolve: world.resolveOverrides });
    const r = await untrusting.fetch(req('https://echo.world-fixtures.com/'));
    assert.equal(!r.ok && r.errorCode, 'TLS');
    await untrusting.close();
  });

  test('egress: direct egress (no proxy) still guards and connects to the checked address', async () => {
    const direct = createEgress({ name: 'direct', allowDirect: true, resolve: world.resolveOverrides, ca: world.ca });
    const r = await direct.fetch(req('https://internal.world-fixtures.com/'));
    assert.equal(!r.ok && r.errorCode, 'GUARD_REFUSED');
    await direct.close();
  });
});
