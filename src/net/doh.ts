/**
 * DNS over HTTPS (RFC 8484), wire format only: the query a scan sends and the reading of the
 * answer. The request itself leaves through the scanner's guarded egress like any probe
 * (src/scanner/dns-lookups.ts), so a lookup never touches the host's resolver.
 *
 * GET with `?dns=<base64url, no padding>` (RFC 8484 §4.1), so one line of curl repeats it; the
 * query ID is 0 as §4.1 recommends for caching. Encoding and decoding are dns-packet's; SVCB
 * (type 64), which dns-packet does not know, is asked for as `UNKNOWN_64` and its RDATA read by
 * svcb.ts. An HTTP error or an unreadable answer is a failed lookup, never an answer (RFC 8484
 * §4.2.1); RCODE 3 is NXDOMAIN; RCODE 0 without a record of the asked type is NODATA ("absent").
 */
import dnsPacket from 'dns-packet';
import { decodeSvcb, type SvcbRecord } from './svcb.ts';

export const DNS_MESSAGE = 'application/dns-message';
export type DohType = 'TXT' | 'SVCB';
const SVCB_TYPE = 'UNKNOWN_64';

/** The wire-format query for `name` and `type`, ID 0, recursion desired. */
export function dohQuery(name: string, type: DohType): Buffer {
  return dnsPacket.encode({
    type: 'query', id: 0, flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: (type === 'SVCB' ? SVCB_TYPE : 'TXT') as 'TXT', class: 'IN' }],
  });
}

/** The RFC 8484 GET URL of a query against the resolver's URI template (a plain URL: `dns` is appended). */
export function dohGetUrl(resolver: string, name: string, type: DohType): string {
  const u = new URL(resolver);
  u.searchParams.set('dns', dohQuery(name, type).toString('base64url'));
  return u.href;
}

export type DohRecord = { type: 'TXT'; text: string } | ({ type: 'SVCB' } & SvcbRecord);

export type DohAnswer =
  | { state: 'found'; records: DohRecord[] }
  | { state: 'absent'; rcode: 'NOERROR' }
  | { state: 'nxdomain'; rcode: 'NXDOMAIN' }
  | { state: 'failed'; reason: string };

/**
 * What a DoH answer says about `name`/`type`. Only answers for the name asked count (a CNAME
 * chain's final records are in the answer section too, so any record of the type is taken).
 */
export function readDohAnswer(status: number, contentType: string, body: Buffer, type: DohType): DohAnswer {
  if (status !== 200) return { state: 'failed', reason: `the resolver answered HTTP ${status}` };
  if (!contentType.toLowerCase().startsWith(DNS_MESSAGE)) return { state: 'failed', reason: `the resolver answered ${contentType || 'no Content-Type'}, not ${DNS_MESSAGE}` };
  let packet: ReturnType<typeof dnsPacket.decode>;
  try {
    packet = dnsPacket.decode(body);
  } catch (err) {
    return { state: 'failed', reason: `the answer is not a DNS message (${(err as Error).message})` };
  }
  const rcode = (packet as { rcode?: string }).rcode ?? 'NOERROR';
  if (packet.type !== 'response') return { state: 'failed', reason: 'the answer is not a DNS response' };
  if (rcode === 'NXDOMAIN') return { state: 'nxdomain', rcode };
  if (rcode !== 'NOERROR') return { state: 'failed', reason: `the resolver answered RCODE ${rcode}` };
  if (packet.flag_tc) return { state: 'failed', reason: 'the answer was truncated' };
  const records: DohRecord[] = [];
  for (const a of packet.answers ?? []) {
    if (type === 'TXT' && a.type === 'TXT') {
      // RFC 1035 §3.3.14: one or more character-strings, read as one value (RFC 7208 §3.3 does the same).
      const parts = (Array.isArray(a.data) ? a.data : [a.data]) as Array<Buffer | string>;
      records.push({ type: 'TXT', text: parts.map((p) => (typeof p === 'string' ? p : p.toString('utf8'))).join('') });
    } else if (type === 'SVCB' && (a.type as string) === SVCB_TYPE) {
      const svcb = decodeSvcb((a as unknown as { data: Buffer }).data);
      if (!svcb.ok) return { state: 'failed', reason: `an SVCB record could not be read (${svcb.reason})` };
      records.push({ type: 'SVCB', ...svcb.record });
    }
  }
  return records.length ? { state: 'found', records } : { state: 'absent', rcode: 'NOERROR' };
}
