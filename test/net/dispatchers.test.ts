// The dispatcher cache against a real TLS server: a released name's idle connection is closed
// at once. The server asks for ten minutes of keep-alive (its Keep-Alive hint), so without
// release the connection would outlive the test; with it the server sees the close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { DispatcherCache } from '../../src/net/dispatchers.ts';

const certs = new URL('../world/certs/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, certs));

async function siteWithLongKeepAlive() {
  const server = createServer({ key: read('site.key'), cert: read('site.pem') }, (_req, res) => res.end('ok'));
  server.keepAliveTimeout = 600_000;
  const sockets = new Set<Socket>();
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { port, sockets, stop: () => { server.closeAllConnections(); server.close(); } };
}

test('dispatchers: releasing a name closes its idle keep-alive connection at once, whatever the site\'s Keep-Alive hint', async () => {
  const site = await siteWithLongKeepAlive();
  const cache = new DispatcherCache({ ca: read('ca.pem') });
  try {
    const get = async (name: string) => {
      const res = await request(`https://127.0.0.1:${site.port}/`, { headers: { host: name }, dispatcher: cache.get(name, true) });
      return res.body.text();
    };
    assert.equal(await get('released.world-fixtures.com'), 'ok');
    assert.equal(await get('kept.world-fixtures.com'), 'ok');
    assert.equal(site.sockets.size, 2, 'both connections are kept alive');
    const [released] = [...site.sockets];
    cache.release('released.world-fixtures.com');
    // Bounded, so a connection that stays open fails the test instead of hanging it.
    await once(released!, 'close', { signal: AbortSignal.timeout(20_000) });
    assert.equal(site.sockets.size, 1, 'only the released name\'s connection closed');
    // A later request for the released name opens a new connection through a new dispatcher.
    assert.equal(await get('released.world-fixtures.com'), 'ok');
    assert.equal(site.sockets.size, 2);
  } finally {
    await cache.close();
    site.stop();
  }
});
