/**
 * A forward proxy for the test world: CONNECT tunnels and absolute-form plain
 * http, with every outbound connection bound to one loopback source address
 * (127.0.0.2 = networkA, 127.0.0.3 = networkB, 127.0.0.4 = the CLI's user
 * network), so the sites can tell the networks apart.
 *
 * It is also the world's router: the scanner connects to the public-looking
 * address it resolved and guarded (e.g. 11.22.33.10:443), and the proxy maps
 * that address to the loopback port of the site that plays it. Nothing ever
 * leaves the machine; an address the world does not know gets a 502.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type Route = (host: string, port: number) => { host: string; port: number } | null;

export interface WorldProxy {
  url: string;
  localAddress: string;
  /** CONNECT and plain requests seen, for assertions ("the proxy was asked for the checked IP"). */
  seen: string[];
  close(): Promise<void>;
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(target);
  return { host: m?.[1] ?? target, port: m?.[2] ? Number(m[2]) : defaultPort };
}

export async function startProxy(opts: { localAddress: string; route: Route; refuse?: (host: string) => boolean }): Promise<WorldProxy> {
  const sockets = new Set<Socket>();
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    // Absolute-form plain http: GET http://host:port/path
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form request expected');
      return;
    }
    const { host, port } = splitHostPort(target.host, 80);
    seen.push(`GET ${host}:${port}`);
    const to = opts.route(host, port);
    if (!to) {
      res.writeHead(502).end('unknown address');
      return;
    }
    const upstream = httpRequest({ host: to.host, port: to.port, localAddress: opts.localAddress, method: req.method, path: target.pathname + target.search, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end('upstream failed'));
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const { host, port } = splitHostPort(req.url ?? '', 443);
    seen.push(`CONNECT ${host}:${port}`);
    const to = opts.route(host, port);
    client.on('error', () => undefined);
    // An egress policy refusing the destination, as an envoy egress proxy does (anthropics/claude-code#74025).
    if (opts.refuse?.(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\nserver: envoy\r\nx-deny-reason: host_not_allowed\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    if (!to) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect({ host: to.host, port: to.port, localAddress: opts.localAddress });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    localAddress: opts.localAddress,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
