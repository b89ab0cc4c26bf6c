// DNS over HTTPS wire format: the SVCB decoder against RFC 9460 Appendix D's published wire-format
// vectors (not written here: copied byte for byte from the RFC, as unbound's
// testdata/svcb.tdir/svcb.test-vectors-wf.zone also carries them), the world's SVCB encoder
// against the same vectors, and the reading of answers (found, NODATA, NXDOMAIN, failed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import dnsPacket from 'dns-packet';
import { decodeSvcb } from '../../src/net/svcb.ts';
import { dohGetUrl, dohQuery, readDohAnswer } from '../../src/net/doh.ts';
import { svcbRdata } from '../world/doh.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** RFC 9460 Appendix D: [name, wire RDATA, expected reading]. */
const VECTORS: Array<[string, Buffer, { priority: number; target: string; params: Record<string, string> }]> = [
  ['D.1 AliasMode', hex('0000 03666f6f 076578616d706c65 03636f6d 00'), { priority: 0, target: 'foo.example.com.', params: {} }],
  ['D.2 ServiceMode, owner name', hex('0001 00'), { priority: 1, target: '.', params: {} }],
  ['D.2 port only', hex('0010 03666f6f 076578616d706c65 03636f6d 00 0003 0002 0035'), { priority: 16, target: 'foo.example.com.', params: { port: '53' } }],
  ['D.2 unregistered key', hex('0001 03666f6f 076578616d706c65 03636f6d 00 029b 0005 68656c6c6f'), { priority: 1, target: 'foo.example.com.', params: { key667: '68656c6c6f' } }],
  ['D.2 two IPv6 hints', hex('0001 03666f6f 076578616d706c65 03636f6d 00 0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001'), { priority: 1, target: 'foo.example.com.', params: { ipv6hint: '2001:db8::1,2001:db8::53:1' } }],
  ['D.2 mandatory and alpn, sorted', hex('0010 03666f6f 076578616d706c65 036f7267 00 0000 0004 0001 0004 0001 0009 02 6832 05 68332d3139 0004 0004 c0000201'), { priority: 16, target: 'foo.example.org.', params: { mandatory: 'alpn,ipv4hint', alpn: 'h2,h3-19', ipv4hint: '192.0.2.1' } }],
];

describe('SVCB RDATA (RFC 9460 §2.2)', () => {
  for (const [name, wire, want] of VECTORS) {
    test(`decodes Appendix ${name}`, () => {
      const got = decodeSvcb(wire);
      assert.ok(got.ok, JSON.stringify(got));
      assert.deepEqual(got.record, want);
    });
  }
  test('the world encoder writes Appendix D.2 "port only" byte for byte, and D.2 with alpn as the decoder reads it', () => {
    assert.deepEqual(svcbRdata({ priority: 16, target: 'foo.example.com', port: 53 }), VECTORS[2]![1]);
    const round = decodeSvcb(svcbRdata({ priority: 1, target: 'agents.example.com.', alpn: ['h2', 'a2a'], port: 8443 }));
    assert.ok(round.ok);
    assert.deepEqual(round.record, { priority: 1, target: 'agents.example.com.', params: { alpn: 'h2,a2a', port: '8443' } });
  });
  const bad: Array<[string, Buffer, RegExp]> = [
    ['keys out of order', hex('0001 00 0003 0002 0035 0001 0003 026832'), /increasing/],
    ['a value past the end', hex('0001 00 0003 0009 0035'), /past the RDATA/],
    ['a compressed name', hex('0001 c00c'), /compressed/],
    ['too short', hex('00'), /shorter/],
  ];
  for (const [name, wire, re] of bad) test(`refuses ${name}`, () => {
    const got = decodeSvcb(wire);
    assert.equal(got.ok, false);
    assert.match((got as { reason: string }).reason, re);
  });
});

function response(rcode: number, answers: unknown[], flags = 0): Buffer {
  return dnsPacket.encode({ type: 'response', id: 0, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode | flags, questions: [{ name: '_agent.example.com', type: 'TXT' }], answers: answers as dnsPacket.Answer[] });
}

describe('DoH query and answer (RFC 8484)', () => {
  test('the GET URL carries the query as unpadded base64url, ID 0, RD set', () => {
    const url = new URL(dohGetUrl('https://resolver.example/dns-query', '_agent.example.com', 'TXT'));
    const q = url.searchParams.get('dns')!;
    assert.doesNotMatch(q, /[=+/]/);
    const packet = dnsPacket.decode(Buffer.from(q, 'base64url'));
    assert.equal(packet.id, 0);
    assert.equal(packet.flag_rd, true);
    assert.deepEqual(packet.questions, [{ name: '_agent.example.com', type: 'TXT', class: 'IN' }]);
    assert.equal(dnsPacket.decode(dohQuery('_agents.example.com', 'SVCB')).questions![0]!.type, 'UNKNOWN_64');
  });
  const table: Array<[string, number, string, Buffer, string, RegExp | string]> = [
    ['found, split character-strings joined', 200, 'application/dns-message', response(0, [{ type: 'TXT', name: '_agent.example.com', data: [Buffer.from('v=aid2;u=https://a.example/'), Buffer.from('a2a;p=a2a')] }]), 'found', 'v=aid2;u=https://a.example/a2a;p=a2a'],
    ['NODATA', 200, 'application/dns-message', response(0, []), 'absent', ''],
    ['NXDOMAIN', 200, 'application/dns-message', response(3, []), 'nxdomain', ''],
    ['SERVFAIL', 200, 'application/dns-message', response(2, []), 'failed', /SERVFAIL/],
    ['HTTP 502', 502, 'text/html', Buffer.from('<html>bad gateway'), 'failed', /HTTP 502/],
    ['HTML with 200', 200, 'text/html', Buffer.from('<html>'), 'failed', /text\/html/],
    ['garbage', 200, 'application/dns-message', Buffer.from([1, 2, 3]), 'failed', /not a DNS message/],
    ['truncated', 200, 'application/dns-message', response(0, [], dnsPacket.TRUNCATED_RESPONSE), 'failed', /truncated/],
  ];
  for (const [name, status, type, body, state, want] of table) test(name, () => {
    const a = readDohAnswer(status, type, body, 'TXT');
    assert.equal(a.state, state, JSON.stringify(a));
    if (a.state === 'found') assert.equal((a.records[0] as { text: string }).text, want);
    if (a.state === 'failed') assert.match(a.reason, want as RegExp);
  });
});
