// The DNS discovery lookups: by DoH through networkA only (never the host's resolver), beside the
// probes (they start before round one and never take the site's politeness slots), counted in the
// per-scan budget, and a lookup that cannot be made is a failed lookup, never an answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import dnsPacket from 'dns-packet';
import type { Egress, ProbeRequest, ProbeResult } from '../../src/net/egress.ts';
import { createEgress } from '../../src/net/egress.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { lookUpDnsRecords } from '../../src/scanner/dns-lookups.ts';
import { startWorld } from '../world/index.ts';

const RESOLVER = 'https://resolver.example/dns-query';

/** A fake network: the site answers a tiny page; the resolver NXDOMAIN. Counts the site's requests in flight. */
function fakeNetwork(name: string) {
  const stats = { siteInFlight: 0, siteMax: 0, doh: [] as string[], dohBeforeFirstSiteAnswer: 0, siteAnswers: 0, dohAnswered: 0, dohAnsweredAtSend: [] as number[] };
  const egress: Egress = {
    name, configured: true,
    async fetch(req: ProbeRequest): Promise<ProbeResult> {
      const url = new URL(req.url);
      if (url.hostname === 'resolver.example') {
        stats.doh.push(req.url);
        stats.dohAnsweredAtSend.push(stats.dohAnswered);
        if (stats.siteAnswers === 0) stats.dohBeforeFirstSiteAnswer++;
        await new Promise((r) => setImmediate(r));
        stats.dohAnswered++;
        const q = dnsPacket.decode(Buffer.from(url.searchParams.get('dns')!, 'base64url'));
        const body = dnsPacket.encode({ type: 'response', id: 0, flags: 3, questions: q.questions });
        return { ok: true, status: 200, headers: { 'content-type': 'application/dns-message' }, setCookieNames: [], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
      }
      stats.siteInFlight++;
      stats.siteMax = Math.max(stats.siteMax, stats.siteInFlight);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      stats.siteInFlight--;
      stats.siteAnswers++;
      const body = Buffer.from(req.url.endsWith('/robots.txt') ? 'User-agent: *\nAllow: /\n' : '<html><body><p>hello</p></body></html>');
      return { ok: true, status: 200, headers: { 'content-type': req.url.endsWith('.txt') ? 'text/plain' : 'text/html' }, setCookieNames: [], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
    },
    release: () => undefined,
    close: async () => undefined,
  };
  return { egress, stats };
}

test('the lookups go through networkA to the resolver, the first alone and then four together, beside the probes, outside the site bound, and in the evidence', async () => {
  const a = fakeNetwork('networkA');
  const b = fakeNetwork('networkB');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 3, doh: { url: RESOLVER, userAgent: 'agent-readiness/1.0 (test)' } });
  const { report, evidence } = await scanner.scan('dns.example');
  assert.equal(a.stats.doh.length, 5, 'five lookups, through networkA');
  assert.equal(b.stats.doh.length, 0, 'none through networkB');
  assert.ok(a.stats.dohBeforeFirstSiteAnswer >= 1, 'the first lookup was sent before the first site answer arrived: they start with round one');
  assert.deepEqual(a.stats.dohAnsweredAtSend, [0, 1, 1, 1, 1], 'the first alone; the other four together, once it was answered');
  assert.ok(a.stats.siteMax <= 3, `the site bound holds (${a.stats.siteMax})`);
  const names = a.stats.doh.map((u) => dnsPacket.decode(Buffer.from(new URL(u).searchParams.get('dns')!, 'base64url')).questions![0]!);
  assert.deepEqual(names.map((q) => `${q.name} ${q.type}`), ['_agents.dns.example UNKNOWN_64', '_agent.dns.example TXT', '_ans.dns.example TXT', '_x402.dns.example TXT', '_mcp.dns.example TXT']);
  const dnsEvidence = evidence.filter((e) => e.key.startsWith('dns:'));
  assert.deepEqual(dnsEvidence.map((e) => [e.key, e.network, e.accept, e.userAgent]), ['_agents', '_agent', '_ans', '_x402', '_mcp'].map((l) => [`dns:${l}`, 'networkA', 'application/dns-message', 'agent-readiness/1.0 (test)']));
  assert.ok(dnsEvidence.every((e) => e.curl?.includes('resolver.example/dns-query?dns=')), 'each lookup repeats as one line of curl');
  assert.match(report.probeMethod, /five DNS lookups .* by DNS over HTTPS .* never the host's resolver, through networkA/);
  const check = report.preview?.checks.find((c) => c.id === 'discovery.dns-records');
  assert.equal(check?.status, 'inconclusive');
  assert.match(check?.detail ?? '', /no agent discovery records in DNS \(_agents NXDOMAIN, _agent NXDOMAIN, _ans NXDOMAIN, _x402 NXDOMAIN, _mcp NXDOMAIN\): not applicable/);
});

test("the resolver's answers are judged by status alone: no vendor, title or text is read from them", async () => {
  // A resolver behind a CDN (Cloudflare's own, for one) answers with that CDN's headers; a DNS
  // message may hold any bytes. Neither is the site's edge or page.
  const fromResolver = (status: number, body: Buffer): Egress => ({
    name: 'networkA', configured: true, release: () => undefined, close: async () => undefined,
    fetch: async (req) => ({ ok: true, status, headers: { 'content-type': 'application/dns-message', server: 'cloudflare', 'cf-ray': '8f00000000000000-AMS', 'cf-mitigated': 'challenge' }, setCookieNames: ['__cf_bm'], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 }),
  });
  const words = Buffer.from('<html><title>Attention Required! | Cloudflare</title><body>Sorry, you have been blocked. Access denied. captcha</body></html>');
  const answer = Buffer.concat([dnsPacket.encode({ type: 'response', id: 0, flags: 3, questions: [{ type: 'TXT', name: '_agent.dns.example', class: 'IN' }] }), words]);
  const ok = await lookUpDnsRecords('dns.example', fromResolver(200, answer), { url: RESOLVER, userAgent: 'ua' }, { timeoutMs: 1000, signal: new AbortController().signal, budget: { remaining: 10 } });
  assert.deepEqual(ok.records.map((r) => [r.outcome, r.vendors, r.title, r.textChars]), Array(5).fill(['pass', [], '', 0]));
  const refused = await lookUpDnsRecords('dns.example', fromResolver(403, words), { url: RESOLVER, userAgent: 'ua' }, { timeoutMs: 1000, signal: new AbortController().signal, budget: { remaining: 10 } });
  assert.deepEqual(refused.records.map((r) => [r.outcome, r.vendors, r.markers]), Array(5).fill(['block', [], ['status 403']]));
  assert.deepEqual(refused.dns.lookups.map((l) => l.answer.state), Array(5).fill('failed'), 'a refusal by the resolver is a failed lookup');
});

test('without a resolver no lookup is made and the check says so', async () => {
  const a = fakeNetwork('networkA');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: fakeNetwork('networkB').egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000 });
  const { report, evidence } = await scanner.scan('dns.example');
  assert.equal(a.stats.doh.length, 0);
  assert.equal(evidence.filter((e) => e.key.startsWith('dns:')).length, 0);
  assert.match(report.preview?.checks.find((c) => c.id === 'discovery.dns-records')?.detail ?? '', /not looked up/);
});

test('each lookup counts in the budget; one past it is a failed lookup, not sent', async () => {
  const a = fakeNetwork('networkA');
  const budget = { remaining: 2 };
  const { dns, records } = await lookUpDnsRecords('dns.example', a.egress, { url: RESOLVER, userAgent: 'ua' }, { timeoutMs: 1000, signal: new AbortController().signal, budget });
  assert.equal(a.stats.doh.length, 2);
  assert.equal(budget.remaining, 0);
  assert.deepEqual(dns.lookups.map((l) => l.answer.state), ['nxdomain', 'nxdomain', 'failed', 'failed', 'failed']);
  assert.deepEqual(records.map((r) => r.errorCode), [null, null, 'BUDGET', 'BUDGET', 'BUDGET']);
});

test('through the world: the record names are never given to the host resolver, and the answers come back through networkA', async () => {
  const world = await startWorld({ logRequests: true });
  try {
    const asked: string[] = [];
    const networkA = createEgress({ name: 'networkA', proxyUrl: world.proxies.networkA, resolve: world.resolveOverrides, ca: world.ca, dnsLookup: async (host) => { asked.push(host); throw new Error('the host resolver must not be used'); } });
    try {
      const { dns } = await lookUpDnsRecords(world.domain('dns-records'), networkA, { url: world.dohUrl, userAgent: 'ua' }, { timeoutMs: 5000, signal: new AbortController().signal, budget: { remaining: 10 } });
      assert.deepEqual(dns.lookups.map((l) => l.answer.state), ['found', 'found', 'found', 'found', 'found']);
      assert.deepEqual(asked, [], 'nothing was resolved with the host resolver');
      const dohRequests = world.requests.filter((r) => r.host === 'dns.world-fixtures.com');
      assert.equal(dohRequests.length, 5);
      assert.ok(dohRequests.every((r) => r.network === 'networkA'));
    } finally {
      await networkA.close();
    }
  } finally {
    await world.stop();
  }
});

test('a zone stuffed with long records makes a bounded detail', async () => {
  const { check } = await import('../../src/scanner/checks/discovery.dns-records.ts');
  const { evidence } = await import('./fixtures.ts');
  const { DNS_RECORD_KINDS } = await import('../../src/scanner/dns-records.ts');
  const long = `v=aid2;u=https://x.example/${'a'.repeat(5000)};p=a2a`;
  const ev = evidence({ dns: { resolver: RESOLVER, lookups: DNS_RECORD_KINDS.map((kind) => ({ kind, name: kind.label, evidenceId: 'ev', answer: { state: 'found' as const, records: Array.from({ length: 50 }, () => (kind.type === 'SVCB' ? { type: 'SVCB' as const, priority: 1, target: `${'b'.repeat(60)}.example.`, params: {} } : { type: 'TXT' as const, text: long })) } })) } });
  const o = check.evaluate(ev);
  assert.ok(o.detail.length < 8000, `${o.detail.length} characters`);
});

test('a resolver that never answers holds the scan up by the grace at most: the lookup under way is cut off, the rest never start', async () => {
  const a = fakeNetwork('networkA');
  let dohSent = 0;
  const hanging: Egress = {
    ...a.egress,
    fetch: (req) => (new URL(req.url).hostname === 'resolver.example'
      // Never answers; ends only when its signal does (the engine's cut-off), as a hung TCP peer would.
      ? (dohSent++, new Promise<ProbeResult>((resolve) => req.signal!.addEventListener('abort', () => resolve({ ok: false, errorCode: 'TIMEOUT', message: 'aborted', redirects: [], timingMs: 0 }), { once: true })))
      : a.egress.fetch(req)),
  };
  const scanner = createScanner({ networks: { networkA: hanging, networkB: fakeNetwork('networkB').egress }, deadlineMs: 120_000, probeTimeoutMs: 60_000, doh: { url: RESOLVER, userAgent: 'ua' } });
  const { report, evidence } = await scanner.scan('dns.example');
  assert.equal(dohSent, 1, 'one lookup sent; it never ended before the cut-off, so no other started');
  const dns = evidence.filter((e) => e.key.startsWith('dns:'));
  assert.deepEqual(dns.map((e) => e.errorCode), ['TIMEOUT', 'DEADLINE', 'DEADLINE', 'DEADLINE', 'DEADLINE']);
  const check = report.preview?.checks.find((c) => c.id === 'discovery.dns-records');
  assert.equal(check?.status, 'inconclusive');
  assert.match(check?.detail ?? '', /failed: _agents SVCB \(TIMEOUT: aborted\), _agent TXT \(the scan \(or its wait for DNS\) ended before this lookup started\)/);
});

test('a resolver that gave no answer (a timeout) is not asked again in the same scan', async () => {
  const a = fakeNetwork('networkA');
  let dohSent = 0;
  const timingOut: Egress = { ...a.egress, fetch: (req) => (new URL(req.url).hostname === 'resolver.example' ? (dohSent++, Promise.resolve({ ok: false, errorCode: 'TIMEOUT', message: 'timed out', redirects: [], timingMs: 8000 })) : a.egress.fetch(req)) };
  const { dns, records } = await lookUpDnsRecords('dns.example', timingOut, { url: RESOLVER, userAgent: 'ua' }, { timeoutMs: 8000, signal: new AbortController().signal, budget: { remaining: 10 } });
  assert.equal(dohSent, 1);
  assert.deepEqual(records.map((r) => [r.errorCode, r.outcome]), [['TIMEOUT', 'transport-error'], ...Array(4).fill(['NOT_ASKED', 'unprobed'])]);
  assert.match((dns.lookups[1]!.answer as { reason: string }).reason, /not asked: the resolver gave no answer to an earlier lookup \(TIMEOUT on _agents\)/);
});
