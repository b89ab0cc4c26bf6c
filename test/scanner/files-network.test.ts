// Where the well-known files are read (gather.ts #filesNetwork): the second network once both
// browser controls passed, so that robots.txt as every agent on the robots network does not
// lengthen the scan; the robots network, as before, when the second network cannot serve the
// browser or has no route. The request count per network is what sets the scan's critical path
// under the per-network bound (bench/results.md: waves of 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Egress, ProbeRequest, ProbeResult } from '../../src/net/egress.ts';
import { createEgress } from '../../src/net/egress.ts';
import { createScanner, DEFAULT_CONCURRENCY } from '../../src/scanner/engine.ts';
import { AUX_PATHS } from '../../src/scanner/gather.ts';
import { probeableAgents, productArrivals } from '../../src/scanner/roster.ts';


/** A site behind a fake egress; `refuseBrowser` answers everything 403 (a network the site refuses). */
function site(name: string, refuseBrowser = false) {
  const seen: string[] = [];
  let inFlight = 0;
  let max = 0;
  const egress: Egress = {
    name,
    configured: true,
    async fetch(req: ProbeRequest): Promise<ProbeResult> {
      inFlight++;
      max = Math.max(max, inFlight);
      seen.push(req.url);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      inFlight--;
      const isRobots = req.url.endsWith('/robots.txt');
      if (refuseBrowser) {
        return { ok: true, status: 403, headers: { 'content-type': 'text/plain' }, setCookieNames: [], body: Buffer.from('Forbidden: datacenter IP'), bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
      }
      const body = Buffer.from(isRobots ? 'User-agent: *\nAllow: /\n' : req.url.endsWith('/') ? '<html><head><title>Home</title></head><body><main><p>hello there, a page</p></main></body></html>' : 'not here');
      return { ok: true, status: isRobots || req.url.endsWith('/') ? 200 : 404, headers: { 'content-type': isRobots ? 'text/plain' : 'text/html' }, setCookieNames: [], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
    },
    release: () => undefined,
    close: async () => undefined,
  };
  return { egress, seen, max: () => max };
}

const isFile = (url: string) => AUX_PATHS.some((p) => url.endsWith(p));
const GRID = probeableAgents().length + 1;

test('both controls pass: the well-known files are read from networkB, and networkA carries one wave more than before robots.txt per requester, not three', async () => {
  const a = site('networkA');
  const b = site('networkB');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000 });
  const { evidence } = await scanner.scan('files.example');
  assert.deepEqual(a.seen.filter(isFile), [], 'no file on networkA');
  assert.equal(b.seen.filter(isFile).length, AUX_PATHS.length);
  for (const e of evidence.filter((x) => x.key.startsWith('file:'))) assert.equal(e.network, 'networkB', e.key);
  // networkA: the grid, robots.txt as the browser and as every agent, the Markdown requests (they stay beside the home page they compare with).
  const markdown = 1 + productArrivals().filter((p) => p.asks === 'accept').length;
  assert.equal(a.seen.length, GRID + 1 + probeableAgents().length + markdown);
  assert.equal(b.seen.length, GRID + 1 + AUX_PATHS.length);
  // Before robots.txt was read per requester networkA carried the grid, two robots.txt reads, the Markdown requests and the files.
  const before = GRID + 2 + markdown + AUX_PATHS.length;
  const waves = (n: number) => Math.ceil(n / DEFAULT_CONCURRENCY);
  assert.ok(waves(Math.max(a.seen.length, b.seen.length)) <= waves(before) + 1, `waves ${waves(a.seen.length)}/${waves(b.seen.length)} against ${waves(before)} before`);
  assert.ok(a.max() <= DEFAULT_CONCURRENCY && b.max() <= DEFAULT_CONCURRENCY, 'the bound holds on both networks');
});

test('networkB refuses the browser: the files are read from networkA, as before', async () => {
  const a = site('networkA');
  const b = site('networkB', true);
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000 });
  const { evidence } = await scanner.scan('files-b-refused.example');
  assert.equal(a.seen.filter(isFile).length, AUX_PATHS.length);
  assert.deepEqual(b.seen.filter(isFile), []);
  for (const e of evidence.filter((x) => x.key.startsWith('file:'))) assert.equal(e.network, 'networkA', e.key);
});

test('networkB has no route (the CLI\'s local mode, one network configured): the files are read from networkA without waiting', async () => {
  const a = site('networkA');
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: createEgress({ name: 'networkB' }) }, deadlineMs: 60_000, probeTimeoutMs: 10_000 });
  const { evidence } = await scanner.scan('files-one-network.example');
  assert.equal(a.seen.filter(isFile).length, AUX_PATHS.length);
  for (const e of evidence.filter((x) => x.key.startsWith('file:'))) assert.equal(e.network, 'networkA', e.key);
});
