/**
 * The world's own DNS over HTTPS resolver (RFC 8484), at https://dns.world-fixtures.com/dns-query:
 * GET `?dns=` and POST `application/dns-message`. It answers the DNS discovery names of each
 * scenario from the scenario's `dns` records (`{domain}` filled in): a name with records of another
 * type is NODATA, a name without records NXDOMAIN, and a scenario with `failure` makes every lookup
 * of its names fail (HTTP 503, or RCODE SERVFAIL). Messages are encoded with dns-packet; SVCB RDATA
 * (RFC 9460 §2.2) is written by svcbRdata below, independently of the scanner's decoder
 * (src/net/svcb.ts), and both are checked against RFC 9460 Appendix D (test/net/svcb.test.ts).
 * Fidelity: protocol-exact wire format; the record contents are the drafts' example shapes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import dnsPacket from 'dns-packet';
import { WORLD_SUFFIX } from './site.ts';

export const DOH_LABEL = 'dns';
export const DOH_PATH = '/dns-query';

export interface WorldSvcb { priority: number; target: string; alpn?: readonly string[]; port?: number }

export interface WorldDns {
  /** Every lookup of this site's names fails: the resolver answers HTTP 503, or RCODE SERVFAIL. */
  failure?: 'http' | 'servfail';
  /** TXT records by label (`_agent`), each one string. */
  txt?: Record<string, readonly string[]>;
  /** SVCB records by label (`_agents`). */
  svcb?: Record<string, readonly WorldSvcb[]>;
}

/** RFC 9460 §2.2 wire format: priority, uncompressed TargetName, SvcParams in increasing key order (alpn=1, port=3). */
export function svcbRdata(r: WorldSvcb): Buffer {
  const name = r.target === '.' ? [Buffer.from([0])] : [...r.target.replace(/\.$/, '').split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')])), Buffer.from([0])];
  const params: Buffer[] = [];
  const param = (key: number, value: Buffer) => {
    const h = Buffer.alloc(4);
    h.writeUInt16BE(key, 0);
    h.writeUInt16BE(value.length, 2);
    params.push(h, value);
  };
  if (r.alpn) param(1, Buffer.concat(r.alpn.map((a) => Buffer.concat([Buffer.from([a.length]), Buffer.from(a, 'latin1')]))));
  if (r.port !== undefined) { const p = Buffer.alloc(2); p.writeUInt16BE(r.port); param(3, p); }
  const prio = Buffer.alloc(2);
  prio.writeUInt16BE(r.priority);
  return Buffer.concat([prio, ...name, ...params]);
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

/** The handler of the `dns` host; `dnsOf(label)` gives the records of the scenario playing that label now. */
export function dohHandler(dnsOf: (label: string) => WorldDns | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'https://x');
    if (url.pathname !== DOH_PATH) return void res.writeHead(404).end();
    const answer = (query: Buffer) => {
      let q: ReturnType<typeof dnsPacket.decode>;
      try {
        q = dnsPacket.decode(query);
      } catch {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('not a DNS message');
      }
      const question = q.questions?.[0];
      if (!question) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('no question');
      const name = question.name.toLowerCase();
      const [label, ...rest] = name.split('.');
      const host = rest.join('.');
      const site = host.endsWith(`.${WORLD_SUFFIX}`) ? host.slice(0, -WORLD_SUFFIX.length - 1).replace(/--\d+$/, '') : '';
      const dns = dnsOf(site);
      if (dns?.failure === 'http') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('resolver unavailable');
      const fill = (t: string) => t.replaceAll('{domain}', host);
      const txt = dns?.txt?.[label!];
      const svcb = dns?.svcb?.[label!];
      const wantSvcb = (question.type as string) === 'UNKNOWN_64';
      const answers = wantSvcb
        ? (svcb ?? []).map((r) => ({ type: 'UNKNOWN_64', name: question.name, ttl: 300, class: 'IN', data: svcbRdata({ ...r, target: fill(r.target) }) }))
        : question.type === 'TXT' ? (txt ?? []).map((t) => ({ type: 'TXT', name: question.name, ttl: 300, class: 'IN', data: [Buffer.from(fill(t))] })) : [];
      const rcode = dns?.failure === 'servfail' ? RCODE.SERVFAIL : txt || svcb ? RCODE.NOERROR : RCODE.NXDOMAIN;
      const body = dnsPacket.encode({
        type: 'response', id: q.id ?? 0, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
        questions: q.questions, answers: (rcode === RCODE.NOERROR ? answers : []) as dnsPacket.Answer[],
      });
      res.writeHead(200, { 'content-type': 'application/dns-message', 'cache-control': 'max-age=300' }).end(body);
    };
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => answer(Buffer.concat(chunks)));
      return;
    }
    const dns = url.searchParams.get('dns');
    if (!dns) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('no dns parameter');
    answer(Buffer.from(dns, 'base64url'));
  };
}
