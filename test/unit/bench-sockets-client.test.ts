// The CPU benchmark's lowest reference (bench/lib/sockets-client.ts) must make what the egress
// makes of a site, or its figure compares nothing: every answer read to its end whatever its
// framing, the request bytes undici writes, and a name's later connections resuming its session.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { createSocketsClient, type PlannedRequest } from '../../bench/lib/sockets-client.ts';
import { startWorld, type World } from '../world/index.ts';

let world: World;
const seen: { path: string; rawHeaders: string[]; reused: boolean; socket: TLSSocket }[] = [];
before(async () => {
  world = await startWorld({
    scenarios: [],
    handlers: {
      answers: (req: IncomingMessage, res) => {
        const socket = req.socket as TLSSocket;
        seen.push({ path: req.url!, rawHeaders: req.rawHeaders, reused: socket.isSessionReused(), socket });
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' }); // no length: Node frames it chunked
          res.write('a'.repeat(20_000));
          setImmediate(() => res.end('0\r\n\r\n')); // a body ending like the terminator, then the terminator
        } else if (req.url === '/close') res.writeHead(404, { connection: 'close', 'content-length': '3' }).end('no!');
        else if (req.url === '/empty') res.writeHead(204).end();
        else res.writeHead(200, { 'content-length': '50000' }).end('b'.repeat(50_000));
      },
    },
  });
});
after(async () => { await world.stop(); });

const client = (perSite: number) => createSocketsClient({
  proxies: { networkA: new URL(world.proxies.networkA), networkB: new URL(world.proxies.networkB) }, ca: world.ca, perSite,
});
const plan = (paths: string[]): PlannedRequest[] => (['networkA', 'networkB'] as const).flatMap((network) =>
  paths.map((path) => ({ network, path, headers: { 'user-agent': 'Bench/1.0', accept: '*/*' } })));

test('bench sockets client: reads every answer to its end, by length, chunked, empty and closing, and sends undici\'s request head', async () => {
  seen.length = 0;
  const requests = plan(['/len', '/chunked', '/close', '/empty', '/len', '/chunked', '/close', '/empty', '/len', '/len']);
  // One connection per network, so an answer read short or long would garble the next one's status.
  const expected = { '/len': 200, '/chunked': 200, '/close': 404, '/empty': 204 } as Record<string, number>;
  assert.deepEqual((await client(1).scan(world.domain('answers'), requests)).toSorted(), requests.map((r) => expected[r.path]!).toSorted());
  assert.equal(seen.length, requests.length);
  assert.deepEqual(seen[0]!.rawHeaders, ['host', world.domain('answers'), 'connection', 'keep-alive', 'user-agent', 'Bench/1.0', 'accept', '*/*']);
});

test('bench sockets client: a site\'s later connections resume its first session, per network, as the egress does', async () => {
  seen.length = 0;
  const host = world.domain('answers--2');
  assert.deepEqual(await client(8).scan(host, plan(Array(32).fill('/len'))), Array(64).fill(200));
  const sockets = new Map(seen.map((s) => [s.socket, s.reused]));
  assert.equal(sockets.size, 16, 'eight connections per network');
  assert.equal([...sockets.values()].filter((reused) => !reused).length, 2, 'one full handshake per network');
});
