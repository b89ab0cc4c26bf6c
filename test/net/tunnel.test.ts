// CONNECT tunnels through proxies we did not write: proxy-chain (Apify's forward proxy) in front
// of the world's user proxy, as a corporate proxy sits in front of the caller's network. The
// CLI behind `HTTPS_PROXY=http://user:pass@proxy:port` must authenticate as curl and npm do,
// and an https proxy must be reached over TLS and its certificate checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Server as ProxyServer, type PrepareRequestFunctionOpts } from 'proxy-chain';
import { startWorld, type World } from '../world/index.ts';
import { createEgress, type ProbeRequest } from '../../src/net/egress.ts';
import { classifyError } from '../../src/net/errors.ts';
import { openTunnel, parseTunnelProxy } from '../../src/net/tunnel.ts';

const certs = new URL('../world/certs/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, certs));

let world: World;
before(async () => {
  world = await startWorld({
    scenarios: [],
    handlers: { echo: (req, res, info) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${info.network} ${req.headers.host}`) },
  });
});
after(async () => { await world.stop(); });

const req = (url: string): ProbeRequest => ({ url, timeoutMs: 5000, maxBodyBytes: 64 * 1024, maxRedirects: 5 });

/** proxy-chain asking for `user`/`password` (or nothing), chained to the world's user proxy; records what it was told. */
async function corporateProxy(opts: { user?: string; password?: string; https?: boolean }) {
  const seen: Array<Pick<PrepareRequestFunctionOpts, 'username' | 'password' | 'hostname' | 'port'> & { method: string }> = [];
  const prepareRequestFunction = ({ request, username, password, hostname, port }: PrepareRequestFunctionOpts) => {
    seen.push({ method: request.method ?? '', username, password, hostname, port });
    if (opts.user !== undefined && (username !== opts.user || password !== opts.password)) return { requestAuthentication: true };
    return { upstreamProxyUrl: world.proxies.user };
  };
  const common = { port: 0, host: '127.0.0.1', prepareRequestFunction };
  const server = opts.https
    ? new ProxyServer({ ...common, serverType: 'https', httpsOptions: { key: read('proxy.key'), cert: read('proxy.pem') } })
    : new ProxyServer(common);
  await server.listen();
  return { port: server.port, seen, close: () => server.close(true) };
}

describe('CONNECT tunnels through a proxy we did not write', () => {
  test('tunnel: credentials in the proxy URL are sent as Proxy-Authorization, percent-decoded, and the site answers', async () => {
    const proxy = await corporateProxy({ user: 'al@ice', password: 'p:ss w/rd' });
    const egress = createEgress({ name: 'user', proxyUrl: `http://al%40ice:p%3Ass%20w%2Frd@127.0.0.1:${proxy.port}`, proxyResolvesNames: true, ca: world.ca });
    try {
      const r = await egress.fetch(req('https://echo.world-fixtures.com/'));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.body.toString(), 'user echo.world-fixtures.com');
      assert.deepEqual(proxy.seen, [{ method: 'CONNECT', username: 'al@ice', password: 'p:ss w/rd', hostname: 'echo.world-fixtures.com', port: 443 }]);
    } finally {
      await egress.close();
      await proxy.close();
    }
  });

  test('tunnel: a proxy that wants credentials and gets none fails the probe as PROXY, with its 407 in the message', async () => {
    const proxy = await corporateProxy({ user: 'alice', password: 'secret' });
    const egress = createEgress({ name: 'user', proxyUrl: `http://127.0.0.1:${proxy.port}`, proxyResolvesNames: true, ca: world.ca });
    try {
      const r = await egress.fetch(req('https://echo.world-fixtures.com/'));
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.errorCode, 'PROXY');
      assert.match(!r.ok ? r.message : '', /407/);
    } finally {
      await egress.close();
      await proxy.close();
    }
  });

  test('tunnel: an https proxy is reached over TLS, its certificate checked against the egress\'s trust', async () => {
    const proxy = await corporateProxy({ https: true, user: 'alice', password: 'secret' });
    const trusted = createEgress({ name: 'user', proxyUrl: `https://alice:secret@127.0.0.1:${proxy.port}`, proxyResolvesNames: true, ca: world.ca });
    // Trusts only the site's own certificate, not the CA that signed the proxy's.
    const untrusting = createEgress({ name: 'user', proxyUrl: `https://alice:secret@127.0.0.1:${proxy.port}`, proxyResolvesNames: true, ca: read('site.pem') });
    try {
      const r = await trusted.fetch(req('https://echo.world-fixtures.com/'));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.body.toString(), 'user echo.world-fixtures.com');
      const refused = await untrusting.fetch(req('https://echo.world-fixtures.com/'));
      assert.equal(!refused.ok && refused.errorCode, 'PROXY', JSON.stringify(refused));
      assert.match(!refused.ok ? refused.message : '', /https proxy/);
      assert.equal(proxy.seen.length, 1, 'the untrusted proxy was never asked to CONNECT');
    } finally {
      await trusted.close();
      await untrusting.close();
      await proxy.close();
    }
  });
});

describe('openTunnel against a scripted proxy', () => {
  /** A TCP server that accepts and never answers; resolves each accepted socket. */
  async function silentProxy() {
    const sockets: Socket[] = [];
    const accepted: Array<(s: Socket) => void> = [];
    const server = createServer((s) => {
      s.on('error', () => undefined);
      s.resume(); // reads what the client sends (its CONNECT), so the client's close is seen
      sockets.push(s);
      accepted.shift()?.(s);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      next: () => new Promise<Socket>((resolve) => accepted.push(resolve)),
      close: () => { for (const s of sockets) s.destroy(); server.close(); },
    };
  }

  test('tunnel: a proxy that never answers CONNECT times out as TIMEOUT and its connection is closed', async () => {
    const proxy = await silentProxy();
    try {
      const accepted = proxy.next();
      const err = await new Promise<Error | null>((resolve) => openTunnel(parseTunnelProxy(proxy.url, undefined, 200), 'a.world-fixtures.com:443', (e) => resolve(e)));
      assert.ok(err);
      assert.equal(classifyError(err, false).errorCode, 'TIMEOUT');
      const socket = await accepted;
      if (!socket.destroyed) await once(socket, 'close');
    } finally {
      proxy.close();
    }
  });

  test('tunnel: shutdown abandons a tunnel still being opened, with the reason given, and closes its connection', async () => {
    const proxy = await silentProxy();
    try {
      const accepted = proxy.next();
      let result: Error | null | undefined;
      const abandon = openTunnel(parseTunnelProxy(proxy.url), 'a.world-fixtures.com:443', (e) => { result = e; });
      const socket = await accepted;
      const reason = new Error('shutting down');
      abandon(reason);
      assert.equal(result, reason, 'called back at once, with the reason');
      await once(socket, 'close');
      abandon(new Error('again')); // a second call is a no-op
      assert.equal(result, reason);
    } finally {
      proxy.close();
    }
  });

  test('tunnel: an https proxy URL without a port means 443, an http one 80, and credentials are optional', () => {
    assert.deepEqual(
      [parseTunnelProxy('https://proxy.example'), parseTunnelProxy('http://u@proxy.example')].map(({ https, host, port, authorization }) => ({ https, host, port, authorization })),
      [
        { https: true, host: 'proxy.example', port: 443, authorization: undefined },
        { https: false, host: 'proxy.example', port: 80, authorization: `Basic ${Buffer.from('u:').toString('base64')}` },
      ],
    );
    assert.throws(() => parseTunnelProxy('socks5://proxy.example:1080'), /unsupported proxy scheme/);
  });
});
