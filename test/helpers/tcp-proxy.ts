// A TCP proxy (node:net) between a service and a server it depends on (PostgreSQL), so a
// test can cut every open connection at once, as a failover, a restarted load balancer or a
// NAT table flush does. cut() destroys both ends of each connection open at that moment (the
// client sees its socket end); connections made afterwards pass as before. cutOn(pattern) does
// the same the moment the client sends bytes matching the pattern (a given SQL statement in
// PostgreSQL's plaintext protocol), so the cut lands on a query in flight, not only on idle
// connections.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections open now. */
  readonly open: number;
  /** Destroys every open connection; returns how many. */
  cut(): number;
  /** Once: cut() as soon as a client sends a chunk matching `pattern` (that chunk is not forwarded). Resolves with cut()'s count. */
  cutOn(pattern: RegExp): Promise<number>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let accepted = 0;
  let trigger: { pattern: RegExp; fire: () => void } | undefined;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (trigger?.pattern.test(chunk.toString('latin1'))) {
        const t = trigger;
        trigger = undefined;
        t.fire();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    const n = pairs.size;
    // resetAndDestroy: an RST, as a dropped NAT entry or a dead peer gives, not a polite FIN.
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
    return n;
  };
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    get open() {
      return pairs.size;
    },
    cut,
    cutOn: (pattern) => new Promise<number>((resolve) => {
      trigger = { pattern, fire: () => resolve(cut()) };
    }),
    async close() {
      trigger = undefined;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
