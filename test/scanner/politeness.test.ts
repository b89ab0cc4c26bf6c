// The politeness bound holds per site and network however many scans of that site overlap:
// fake egresses count the requests in flight and hold each one open until many are queued,
// so the limiter is under real contention.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Egress, ProbeRequest, ProbeResult } from '../../src/net/egress.ts';
import { createScanner } from '../../src/scanner/engine.ts';

function countingEgress(name: string) {
  const stats = { inFlight: 0, max: 0, total: 0, released: [] as Array<{ hosts: string[]; inFlight: number }> };
  const egress: Egress = {
    name,
    configured: true,
    async fetch(req: ProbeRequest): Promise<ProbeResult> {
      stats.inFlight++;
      stats.total++;
      stats.max = Math.max(stats.max, stats.inFlight);
      // Yield several turns of the event loop, so other probes pile up behind the bound.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      stats.inFlight--;
      const body = Buffer.from(req.url.endsWith('/robots.txt') ? 'User-agent: *\nAllow: /\n' : '<html><body><p>hello</p></body></html>');
      return { ok: true, status: 200, headers: { 'content-type': req.url.endsWith('.txt') ? 'text/plain' : 'text/html' }, setCookieNames: [], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
    },
    release: (hosts) => void stats.released.push({ hosts: [...hosts].sort(), inFlight: stats.inFlight }),
    close: async () => undefined,
  };
  return { egress, stats };
}

test('three overlapping scans of one site never have more than the bound in flight per network', async () => {
  const a = countingEgress('networkA');
  const b = countingEgress('networkB');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 3 });
  await Promise.all([scanner.scan('polite.example'), scanner.scan('polite.example'), scanner.scan('POLITE.example')]);
  for (const { stats } of [a, b]) {
    assert.ok(stats.total > 60, `${stats.total} requests`);
    assert.ok(stats.max <= 3, `at most 3 in flight, saw ${stats.max}`);
    assert.equal(stats.max, 3, 'the bound was reached, so the test exercised contention');
  }
});

test('scans of different sites each get their own bound', async () => {
  const a = countingEgress('networkA');
  const b = countingEgress('networkB');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 2 });
  await Promise.all([scanner.scan('one.example'), scanner.scan('two.example')]);
  assert.ok(a.stats.max > 2 && a.stats.max <= 4, `two sites, two bounds of 2: saw ${a.stats.max}`);
});

test('a site\'s connections are released on both networks once its last scan ends, not while another still runs', async () => {
  const a = countingEgress('networkA');
  const b = countingEgress('networkB');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 3 });
  const first = scanner.scan('polite.example');
  const second = scanner.scan('polite.example');
  await first;
  assert.deepEqual(a.stats.released, [], 'the second scan of the site still uses them');
  await second;
  await scanner.scan('other.example');
  for (const { stats } of [a, b]) {
    assert.deepEqual(stats.released.map((r) => r.hosts), [['polite.example'], ['other.example']]);
    assert.ok(stats.released.every((r) => r.inFlight === 0), 'released only with nothing in flight');
  }
});

test('a scan that throws still releases every host it reached, redirect targets included', async () => {
  const a = countingEgress('networkA');
  const b = countingEgress('networkB');
  for (const { egress } of [a, b]) {
    const fetch = egress.fetch.bind(egress);
    egress.fetch = async (req) => {
      // A fault injected below the scanner: the egress throws instead of answering. The site
      // files are queued behind the home pages, so home answers have arrived by then.
      if (req.url.endsWith('/llms.txt')) throw new Error('injected fault');
      const res = await fetch(req);
      // The home page redirects to another host, which only the answer's record names.
      if (res.ok && req.url === 'https://polite.example/') return { ...res, redirects: ['https://www.polite.example/'], finalUrl: 'https://www.polite.example/' };
      return res;
    };
  }
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 3 });
  await assert.rejects(scanner.scan('polite.example'), /injected fault/);
  for (const { stats } of [a, b]) {
    assert.deepEqual(stats.released.map((r) => r.hosts), [['polite.example', 'www.polite.example']]);
  }
});
