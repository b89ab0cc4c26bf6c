// The egress sends each probe's headers exactly as the roster lists them: read on the wire by a
// raw TLS server that keeps the request's bytes (no HTTP parser between us and the claim).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { zstdCompressSync } from 'node:zlib';
import { createEgress, type Egress } from '../../src/net/egress.ts';
import { createLimiter, runProbe } from '../../src/scanner/probe.ts';
import { agentHeaders, controlHeaders, getRoster, productArrivals, type HeaderList } from '../../src/scanner/roster.ts';

const certs = new URL('../world/certs/', import.meta.url);
let server: Server;
let egress: Egress;
let port = 0;
/** Each request's head, as bytes arrived, in arrival order. */
const heads: string[] = [];

before(async () => {
  // proxy.pem covers 127.0.0.1; the egress reaches exactly this origin (the CLI's local mode does the same).
  server = createServer({ key: readFileSync(new URL('proxy.key', certs)), cert: readFileSync(new URL('proxy.pem', certs)) }, (socket: TLSSocket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      buf = buf.subarray(end + 4);
      heads.push(head);
      const zstd = head.startsWith('GET /zstd ');
      const body = zstd ? zstdCompressSync(Buffer.from('# decoded from zstd\n')) : Buffer.from('<!doctype html><title>ok</title><p>hello</p>');
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: ${zstd ? 'text/markdown' : 'text/html'}\r\n${zstd ? 'content-encoding: zstd\r\n' : ''}content-length: ${body.length}\r\n\r\n`);
      socket.write(body);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
  egress = createEgress({ name: 'wire', allowLoopbackTarget: { host: '127.0.0.1', port }, ca: readFileSync(new URL('ca.pem', certs), 'utf8') });
});
after(async () => {
  await egress.close();
  await new Promise((r) => server.close(r));
});

async function sent(path: string, arrival: HeaderList): Promise<{ head: string; body: string }> {
  const ua = arrival.find(([n]) => n.toLowerCase() === 'user-agent')![1];
  const before = heads.length;
  const view = await runProbe(egress, createLimiter(1), { key: 'wire', network: 'networkA', url: `https://127.0.0.1:${port}${path}`, userAgent: ua, arrival, isHome: path === '/' }, { timeoutMs: 5000, signal: new AbortController().signal, budget: { remaining: 10 } });
  assert.equal(view.status, 200, JSON.stringify(view.record));
  assert.equal(heads.length, before + 1);
  return { head: heads[before]!, body: view.body };
}

/** The request head the roster promises: request line, the two lines undici writes, then the list as given. */
function promised(path: string, arrival: HeaderList): string {
  return [`GET ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: keep-alive', ...arrival.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
}

describe('request headers on the wire', () => {
  test('the browser control goes out as Chrome sends it: every header, in Chrome\'s order and case', async () => {
    const { head } = await sent('/', controlHeaders());
    assert.equal(head, promised('/', controlHeaders()));
    assert.match(head, /\r\nsec-ch-ua: .*\r\nsec-ch-ua-mobile: \?0\r\nsec-ch-ua-platform: "Linux"\r\nUpgrade-Insecure-Requests: 1\r\nUser-Agent: /);
  });

  test('every probeable agent and every product goes out byte for byte as its roster entry lists it', async () => {
    const agents = getRoster().filter((a) => !a.tokenOnly && a.ua !== null);
    for (const a of agents) assert.equal((await sent('/', agentHeaders(a))).head, promised('/', agentHeaders(a)), a.token);
    for (const p of productArrivals()) assert.equal((await sent('/', p.request.headers)).head, promised('/', p.request.headers), p.id);
  });

  test('an agent that sends no Accept (PerplexityBot) sends none: nothing is filled in for it', async () => {
    const bot = getRoster().find((a) => a.token === 'PerplexityBot')!;
    const { head } = await sent('/', agentHeaders(bot));
    assert.doesNotMatch(head, /\r\naccept:/i);
    assert.match(head, /\r\nfrom: crawler-support@perplexity\.ai$/);
  });

  test('an answer in zstd, which the control offers as Chrome does, is decoded', async () => {
    const { body } = await sent('/zstd', controlHeaders());
    assert.equal(body, '# decoded from zstd\n');
  });
});
