// The robots.txt requests a scan makes (gather.ts): on the robots network as the browser and as
// every probed agent with its whole roster request; on the other network as the browser and, in
// round two, as each agent whose copy said something else; all of them inside the per-scan budget
// and the per-network bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Egress, ProbeRequest, ProbeResult } from '../../src/net/egress.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { agentHeaders, controlHeaders, probeableAgents } from '../../src/scanner/roster.ts';

interface Seen { url: string; headers: Record<string, string> }

/** A site behind a fake egress: robots.txt per user-agent from `robots`, a page elsewhere; counts requests in flight. */
function site(name: string, robots: (ua: string) => string) {
  const stats = { inFlight: 0, max: 0, seen: [] as Seen[] };
  const egress: Egress = {
    name,
    configured: true,
    async fetch(req: ProbeRequest): Promise<ProbeResult> {
      stats.inFlight++;
      stats.max = Math.max(stats.max, stats.inFlight);
      stats.seen.push({ url: req.url, headers: req.headers ?? {} });
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      stats.inFlight--;
      const isRobots = req.url.endsWith('/robots.txt');
      const body = Buffer.from(isRobots ? robots(uaOf(req.headers ?? {})) : '<html><body><p>hello</p></body></html>');
      return { ok: true, status: 200, headers: { 'content-type': isRobots ? 'text/plain' : 'text/html' }, setCookieNames: [], body, bodyTruncated: false, finalUrl: req.url, redirects: [], timingMs: 1 };
    },
    release: () => undefined,
    close: async () => undefined,
  };
  return { egress, stats };
}

const uaOf = (h: Record<string, string>) => Object.entries(h).find(([n]) => n.toLowerCase() === 'user-agent')?.[1] ?? '';
const robotsServedTo = (ua: string) => (/GPTBot/.test(ua) ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /\n');

test('robots.txt is asked for on networkA as the browser and as every probed agent, each with its whole request; on networkB as the browser and again as GPTBot only', async () => {
  const a = site('networkA', robotsServedTo);
  const b = site('networkB', robotsServedTo);
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 4 });
  const { report, evidence } = await scanner.scan('varies.example');
  const robotsA = a.stats.seen.filter((s) => s.url.endsWith('/robots.txt'));
  const robotsB = b.stats.seen.filter((s) => s.url.endsWith('/robots.txt'));
  const agents = probeableAgents();
  assert.equal(robotsA.length, agents.length + 1);
  for (const agent of agents) {
    const sent = robotsA.find((s) => uaOf(s.headers) === agent.ua);
    assert.ok(sent, `robots.txt as ${agent.token}`);
    assert.deepEqual(Object.entries(sent.headers), agentHeaders(agent).map(([n, v]) => [n, v]), `${agent.token}: its whole roster request, in order and case`);
  }
  const browserUa = controlHeaders().find(([n]) => n.toLowerCase() === 'user-agent')![1];
  assert.deepEqual(robotsB.map((s) => uaOf(s.headers)).sort(), [browserUa, agents.find((x) => x.token === 'GPTBot')!.ua].sort(), 'networkB: the browser, then GPTBot in round two');
  assert.equal(report.matrix.find((m) => m.ua === 'GPTBot')?.robotsSays, 'blocked');
  assert.equal(report.matrix.find((m) => m.ua === 'ClaudeBot')?.robotsSays, 'allowed');
  assert.deepEqual(report.robotsTxt?.copies.map((c) => [c.requesters.length, c.secondNetwork]), [[agents.length, ['browser']], [1, ['GPTBot']]]);
  assert.equal(evidence.filter((e) => e.key.startsWith('robots:')).length, robotsA.length + robotsB.length, 'every robots.txt request is in the evidence');
  assert.match(report.probeMethod, /robots\.txt as each agent and as the browser.*every request, these robots\.txt reads included, counts towards at most 200 requests per scan and 4 at a time per network and site/);
  for (const s of [a.stats, b.stats]) assert.ok(s.max <= 4, `the bound holds with the robots.txt requests: saw ${s.max}`);
});

test('the robots.txt requests count in the per-scan budget: past it they are not sent, and those agents are judged by the browser\'s copy', async () => {
  const a = site('networkA', robotsServedTo);
  const b = site('networkB', robotsServedTo);
  const budget = 80;
  const scanner = createScanner({ networks: { networkA: a.egress, networkB: b.egress }, deadlineMs: 60_000, probeTimeoutMs: 10_000, concurrency: 8, maxRequests: budget });
  const { report, evidence } = await scanner.scan('budget.example');
  assert.equal(a.stats.seen.length + b.stats.seen.length, budget, 'exactly the budget was sent');
  const unsent = evidence.filter((e) => e.key.startsWith('robots:') && e.errorCode === 'BUDGET');
  assert.ok(unsent.length > 0, 'some robots.txt requests were left unsent');
  const t = unsent.find((e) => e.key !== 'robots:browser')!.key.slice('robots:'.length);
  const row = report.matrix.find((m) => m.ua === t)!;
  assert.ok(row.notes.some((n) => n === `robots.txt was not received as ${t} (BUDGET), so its verdict uses the browser's copy`), row.notes.join(' | '));
  assert.equal(row.robotsSays, 'allowed');
});
