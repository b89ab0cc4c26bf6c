// What one connection of a scan costs this machine, measured alone (`node bench/connection-cost.ts`):
//   1. the client's CPU per resumed TLS connection carrying one request and its answer, against a
//      local TLS server in another process (the test world's certificate);
//   2. the client's CPU per CONNECT tunnel through a scripted proxy in another process: node's
//      http.request, as src/net/tunnel.ts opens it, against an undici Client per tunnel, as
//      dispatchers.ts did before, in alternating rounds.
// A scan opens 16 connections, each through a tunnel (bench/results.md, notes). Asserts nothing,
// writes nothing to results.md: its figures are quoted in the notes.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { connect, createSecureContext, createServer as createTlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { openTunnel, parseTunnelProxy } from '../src/net/tunnel.ts';

const certs = new URL('../test/world/certs/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, certs));
const cpuUs = (since: NodeJS.CpuUsage) => { const c = process.cpuUsage(since); return c.user + c.system; };

if (process.argv[2] === 'tls-server') {
  const server = createTlsServer({ key: read('site.key'), cert: read('site.pem') }, (s) => {
    s.on('error', () => undefined);
    s.on('data', () => s.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
} else if (process.argv[2] === 'proxy') {
  const server = createNetServer((s) => {
    s.on('error', () => undefined);
    s.once('data', () => s.write('HTTP/1.1 200 Connection Established\r\n\r\n'));
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
} else {
  const start = async (role: string) => {
    const child = fork(fileURLToPath(import.meta.url), [role]);
    return { child, port: await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number))) };
  };

  const site = await start('tls-server');
  const context = createSecureContext({ ca: read('ca.pem') });
  let session: Buffer | undefined;
  let resumed = 0;
  const tlsOnce = () => new Promise<void>((resolve, reject) => {
    const s = connect({ port: site.port, host: '127.0.0.1', servername: 'open-basic--1.world-fixtures.com', secureContext: context, session, ALPNProtocols: ['http/1.1'] }, () => s.write('GET / HTTP/1.1\r\nhost: open-basic--1.world-fixtures.com\r\n\r\n'));
    s.on('session', (x: Buffer) => { session = x; });
    s.once('data', () => { if (s.isSessionReused()) resumed++; s.destroy(); resolve(); });
    s.on('error', reject);
  });
  const TLS_N = 2000;
  for (let i = 0; i < 200; i++) await tlsOnce();
  resumed = 0;
  const t0 = process.cpuUsage();
  for (let i = 0; i < TLS_N; i++) await tlsOnce();
  console.log(`TLS connection + one request, client CPU: ${(cpuUs(t0) / TLS_N).toFixed(0)} µs (${resumed} of ${TLS_N} resumed)`);
  site.child.kill();

  const proxy = await start('proxy');
  const proxyUrl = `http://127.0.0.1:${proxy.port}`;
  const parsed = parseTunnelProxy(proxyUrl);
  const viaUndici = () => new Promise<void>((resolve, reject) => {
    const c = new Client(proxyUrl);
    c.connect({ path: 'a.world-fixtures.com:443', headers: { host: 'a.world-fixtures.com:443', 'proxy-connection': 'keep-alive' } })
      .finally(() => c.destroy(new Error('done')).catch(() => undefined))
      .then(({ socket }) => { socket.destroy(); resolve(); }, reject);
  });
  const viaNode = () => new Promise<void>((resolve, reject) => {
    openTunnel(parsed, 'a.world-fixtures.com:443', (err, socket) => (err || !socket ? reject(err) : (socket.destroy(), resolve())));
  });
  // 8 at a time, as a scan opens a site's connections on one network.
  const ROUNDS = 1500;
  const round = async (open: () => Promise<void>) => {
    const t = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i++) await Promise.all(Array.from({ length: 8 }, open));
    return cpuUs(t) / (8 * ROUNDS);
  };
  await round(viaUndici);
  await round(viaNode);
  const undici: number[] = [];
  const node: number[] = [];
  for (let r = 0; r < 4; r++) {
    undici.push(await round(viaUndici));
    node.push(await round(viaNode));
  }
  console.log(`CONNECT tunnel, client CPU per tunnel, alternating rounds: undici Client ${undici.map((x) => `${x.toFixed(0)} µs`).join(', ')}; node http.request ${node.map((x) => `${x.toFixed(0)} µs`).join(', ')}`);
  proxy.child.kill();
}
