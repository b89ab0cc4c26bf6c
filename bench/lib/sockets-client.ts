// A reference for the CPU benchmark, never used by the service: one scan's requests sent over
// Node's own sockets and TLS with no HTTP library, so bench/results.md can say what the same
// requests cost this machine below undici. It makes what the egress makes of a site: a CONNECT
// tunnel through the network's proxy per connection, TLS with the same session resumption (a
// name's other connections wait for its first session, src/net/tls-sessions.ts), 8 connections
// per site and network, requests one after another on each, the same request bytes as undici
// writes them. It reads an answer only as far as it must to find its end (Content-Length or
// the chunked terminator): it parses no headers into objects, checks nothing and keeps nothing,
// and it knows only the test world's answers (no trailers, no bodies without a length).
import net from 'node:net';
import tls from 'node:tls';

export type Network = 'networkA' | 'networkB';
export interface PlannedRequest { network: Network; path: string; headers: Record<string, string> }

const CRLF2 = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/** A TCP tunnel to host:443 through an HTTP proxy. */
function tunnel(proxy: URL, host: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(proxy.port), proxy.hostname);
    let head: Buffer = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf(CRLF2);
      if (end < 0) return;
      socket.off('data', onData).off('error', reject);
      if (!/^HTTP\/1\.[01] 200/.test(head.toString('latin1', 0, 12))) reject(new Error(`the proxy refused the tunnel: ${head.toString('latin1', 0, end)}`));
      else resolve(socket);
    };
    socket.on('data', onData).once('error', reject);
    socket.once('connect', () => socket.write(`CONNECT ${host}:443 HTTP/1.1\r\nhost: ${host}:443\r\n\r\n`));
  });
}

/** Reads one answer to its end; says whether the site asked to close the connection. */
function readAnswer(socket: tls.TLSSocket): Promise<{ status: number; close: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    let need = -1; // the whole answer's bytes, once the head is in and it has a Content-Length
    let chunked = false;
    let status = 0;
    let close = false;
    let tail: Buffer = Buffer.alloc(0);
    const finish = () => { socket.off('data', onData).off('error', reject); resolve({ status, close }); };
    const onData = (d: Buffer) => {
      got += d.length;
      if (status === 0) {
        chunks.push(d);
        const all = chunks.length === 1 ? d : Buffer.concat(chunks);
        const end = all.indexOf(CRLF2);
        if (end < 0) return;
        const head = all.toString('latin1', 0, end).toLowerCase();
        status = Number(head.slice(9, 12));
        close = /\r\nconnection: *close/.test(head);
        const length = /\r\ncontent-length: *(\d+)/.exec(head);
        chunked = !length && /\r\ntransfer-encoding: *chunked/.test(head);
        need = length ? end + 4 + Number(length[1]) : chunked ? -1 : end + 4;
        tail = all.subarray(end + 4);
      } else if (chunked) tail = Buffer.concat([tail.subarray(-LAST_CHUNK.length), d]);
      if (need >= 0 ? got >= need : tail.subarray(-LAST_CHUNK.length).equals(LAST_CHUNK)) finish();
    };
    socket.on('data', onData).once('error', reject);
  });
}

export function createSocketsClient(opts: { proxies: Record<Network, URL>; ca: string | Buffer; perSite: number }) {
  const secureContext = tls.createSecureContext({ ca: opts.ca });
  const sessions = new Map<string, Buffer>();

  function connect(network: Network, host: string): Promise<tls.TLSSocket> {
    const key = `${network} ${host}`;
    return tunnel(opts.proxies[network], host).then((raw) => new Promise((resolve, reject) => {
      const socket = tls.connect({ socket: raw, servername: host, secureContext, session: sessions.get(key), ALPNProtocols: ['http/1.1'] });
      socket.on('session', (s: Buffer) => sessions.set(key, s));
      socket.once('secureConnect', () => { socket.off('error', reject); resolve(socket); }).once('error', reject);
    }));
  }

  /** One site's requests on one network: `perSite` connections, the first's session resumed by the rest. Resolves to the statuses read. */
  async function site(network: Network, host: string, requests: PlannedRequest[]): Promise<number[]> {
    const queue = [...requests];
    let firstSession!: () => void;
    const sessionReady = new Promise<void>((resolve) => { firstSession = resolve; });
    const statuses: number[] = [];
    const worker = async (first: boolean) => {
      if (!first) await sessionReady;
      let socket: tls.TLSSocket | undefined;
      try {
        for (let r = queue.shift(); r; r = queue.shift()) {
          if (!socket) {
            socket = await connect(network, host);
            if (first) socket.once('session', () => firstSession());
          }
          let head = `GET ${r.path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
          for (const name in r.headers) head += `${name}: ${r.headers[name]}\r\n`;
          const answer = readAnswer(socket);
          socket.write(`${head}\r\n`, 'latin1');
          const { status, close } = await answer;
          statuses.push(status);
          if (close) { socket.destroy(); socket = undefined; }
        }
      } finally {
        socket?.destroy();
        if (first) firstSession(); // a site without tickets, or with no requests left, holds no one
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.perSite) }, (_, i) => worker(i === 0)));
    return statuses;
  }

  /** One scan's requests to `host`; resolves to the status of every answer read, in no set order. */
  async function scan(host: string, plan: readonly PlannedRequest[]): Promise<number[]> {
    const [a, b] = await Promise.all((['networkA', 'networkB'] as const).map((n) => site(n, host, plan.filter((r) => r.network === n))));
    return [...a!, ...b!];
  }

  return { scan };
}
