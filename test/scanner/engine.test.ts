// Engine properties over the test world: determinism, politeness limits, missing networks, the CLI grid.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { SCENARIOS } from '../world/scenarios/index.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { gridKeys, probeGrid } from '../../src/scanner/grid.ts';
import { createEgress, type Egress } from '../../src/net/egress.ts';
import { probeableAgents } from '../../src/scanner/roster.ts';

let world: World;
// A site that counts how many requests each network has in flight at once.
const inFlight = { networkA: 0, networkB: 0 } as Record<string, number>;
const maxInFlight = { networkA: 0, networkB: 0 } as Record<string, number>;
before(async () => {
  world = await startWorld({
    handlers: {
      counted: (_req, res, { network }) => {
        inFlight[network] = (inFlight[network] ?? 0) + 1;
        maxInFlight[network] = Math.max(maxInFlight[network] ?? 0, inFlight[network]!);
        setTimeout(() => {
          inFlight[network]!--;
          res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Counted</title><p>A page that counts its visitors.</p>');
        }, 20);
      },
    },
  });
});
after(async () => { await world.stop(); });

const now = () => new Date('2026-11-22T00:00:00Z');
const scanner = (networks: { networkA: Egress; networkB: Egress } = world.egress(), extra: Partial<Parameters<typeof createScanner>[0]> = {}) =>
  createScanner({ networks, deadlineMs: 15_000, probeTimeoutMs: 5_000, now, ...extra });

describe('engine', () => {
  test('determinism: the same world gives byte-identical reports and evidence apart from timings', async () => {
    for (const name of ['open-basic', 'cf-agents-challenged', 'docs-site', 'aws-cloudfront-split']) {
      const a = await scanner().scan(world.domain(name));
      const b = await scanner().scan(world.domain(name));
      assert.equal(JSON.stringify(a.report), JSON.stringify(b.report), name);
      const strip = (e: typeof a.evidence) => JSON.stringify(e.map(({ timingMs: _t, ...rest }) => rest));
      assert.equal(strip(a.evidence), strip(b.evidence), name);
    }
  });

  test('a missing networkB (unconfigured or down) never turns a check into a failure and never lowers a consistent score', async () => {
    const dead = createEgress({ name: 'networkB', proxyUrl: 'http://127.0.0.1:9', resolve: world.resolveOverrides, ca: world.ca });
    const names = ['open-basic', 'cf-agents-challenged', 'cf-block-training', 'robots-blocks-all', 'docs-site', 'dev-platform', 'reduced-content', 'human-press-hold', 'aws-cloudfront-split'];
    for (const name of names) {
      const full = (await scanner().scan(world.domain(name))).report;
      for (const networkB of [world.egress({ networkB: 'unconfigured' }).networkB, dead]) {
        const partial = (await scanner({ networkA: world.egress().networkA, networkB }).scan(world.domain(name))).report;
        for (const c of partial.checks) {
          const before = full.checks.find((x) => x.id === c.id)!;
          if (c.status === 'fail') assert.equal(before.status, 'fail', `${name}: ${c.id} failed only without networkB`);
        }
        if (full.confidence !== 'low' && full.score.value !== null && partial.score.value !== null) {
          assert.ok(partial.score.value >= full.score.value, `${name}: score ${partial.score.value} < ${full.score.value} without networkB`);
        }
        assert.notEqual(partial.headline, 'agent-hostile', `${name}: agent-hostile needs both vantages`);
        assert.equal(partial.vantagesConfirmed, false);
      }
    }
    await dead.close();
  });

  test('a slow networkB (every probe times out) leaves the score exactly as a healthy scan of the same site', async () => {
    const healthy = (await scanner().scan(world.domain('open-basic'))).report;
    // networkB never answers; 1.5 s is ample for networkA on a loaded machine, and the longer
    // deadline leaves the follow-ups time after networkB's probes have all timed out.
    const slow = (await scanner(world.egress(), { probeTimeoutMs: 1500, deadlineMs: 30_000 }).scan(world.domain('netb-slow'))).report;
    assert.equal(slow.score.value, healthy.score.value);
    assert.deepEqual(slow.score.categories, healthy.score.categories);
    assert.equal(slow.headline, 'open');
  });

  test('the whole-scan deadline turns unfinished probes into transport-error or unprobed, never a failure of the site', async () => {
    world.setLatency(120);
    try {
      // No wall-clock assertion (it fails on a loaded machine): a deadline that did not stop the
      // scan would leave no probe unprobed or cut off, which the next line checks.
      const { report, evidence } = await scanner(world.egress(), { deadlineMs: 200, concurrency: 4 }).scan(world.domain('open-basic'));
      assert.ok(evidence.some((e) => e.outcome === 'unprobed' || e.outcome === 'transport-error'));
      assert.notEqual(report.headline, 'agent-hostile');
      for (const c of report.checks.filter((x) => x.category === 'access')) assert.notEqual(c.status, 'fail', c.id);
    } finally {
      world.setLatency(0);
    }
  });

  test('the politeness bound is per site: two overlapping scans of one domain never exceed it together', async () => {
    maxInFlight.networkA = 0;
    maxInFlight.networkB = 0;
    const s = scanner(world.egress(), { concurrency: 4 });
    await Promise.all([s.scan(world.domain('counted')), s.scan(world.domain('counted'), { profile: 'docs' })]);
    assert.ok(maxInFlight.networkA! <= 4 && maxInFlight.networkA! >= 2, `networkA peaked at ${maxInFlight.networkA}`);
    assert.ok(maxInFlight.networkB! <= 4 && maxInFlight.networkB! >= 2, `networkB peaked at ${maxInFlight.networkB}`);
  });

  test('the per-scan request budget is enforced; requests past it are unprobed', async () => {
    const { evidence } = await scanner(world.egress(), { maxRequests: 10 }).scan(world.domain('open-basic'));
    const sent = evidence.filter((e) => e.errorCode !== 'BUDGET');
    assert.equal(sent.length, 10);
    assert.ok(evidence.filter((e) => e.errorCode === 'BUDGET').every((e) => e.outcome === 'unprobed'));
  });

  test('a full scan stays within 200 requests and covers both grids', async () => {
    const { evidence } = await scanner().scan(world.domain('docs-site'));
    assert.ok(evidence.length <= 200);
    for (const network of ['networkA', 'networkB'] as const) {
      assert.deepEqual(evidence.filter((e) => e.network === network && (e.key === 'control:browser' || e.key.startsWith('grid:'))).map((e) => e.key), gridKeys());
    }
  });

  test('a pinned profile replaces auto-detection and says so', async () => {
    const { report } = await scanner().scan(world.domain('open-basic'), { profile: 'publisher' });
    assert.equal(report.profile, 'publisher');
    assert.ok(report.reasons.some((r) => /pinned/.test(r)));
    assert.notEqual(report.checks.find((c) => c.id === 'trust.machine-license')?.status, 'skipped');
    assert.equal(report.checks.find((c) => c.id === 'discovery.link-headers')?.status, 'skipped');
  });

  test('every report carries versions, probeMethod and the normalized domain', async () => {
    const { report } = await scanner().scan(`HTTPS://WWW.${world.domain('open-basic').toUpperCase()}/path?q=1`);
    assert.equal(report.domain, world.domain('open-basic'));
    assert.deepEqual(report.versions, { schema: 1, rubric: 'rubric-v1.2', roster: 'roster-v1.1', fingerprints: 'fingerprints-v1.2' });
    assert.equal(report.score.rubricVersion, 'rubric-v1.2');
    assert.equal(report.preview?.rubricVersion, 'rubric-v1.3-preview');
    assert.equal(report.schemaVersion, 1);
    assert.match(report.probeMethod, /never claims/);
    assert.equal(report.scannedAt, '2026-11-22T00:00:00.000Z');
  });

  test('a scan asking for rubric-v1.1 is scored and labelled with it; a rubric no scan can use is refused before any request', async () => {
    const { report } = await scanner().scan(world.domain('open-basic'), { rubric: 'rubric-v1.1' });
    assert.equal(report.versions.rubric, 'rubric-v1.1');
    assert.equal(report.score.rubricVersion, 'rubric-v1.1');
    assert.equal(report.checks.length, 30);
    const before = world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length;
    for (const bad of ['rubric-v1.3-preview', 'rubric-v1.2-preview', 'rubric-v9']) {
      await assert.rejects(scanner().scan(world.domain('open-basic'), { rubric: bad }), /not a rubric a scan can be scored with/);
    }
    assert.equal(world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length, before, 'nothing was sent for a refused rubric');
  });

  test('a name resolving to a non-global address is never contacted: every probe is refused by the guard', async () => {
    const before = world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length;
    const { report, evidence } = await scanner().scan(world.domain('internal'));
    assert.equal(world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length, before);
    assert.ok(evidence.every((e) => e.errorCode === 'GUARD_REFUSED'));
    assert.equal(report.headline, 'unknown');
    assert.equal(report.score.value, null);
  });

  test('the engine refuses a domain the normalizer rejects', async () => {
    await assert.rejects(scanner().scan('127.0.0.1'));
  });
});

describe('probe grid (shared with the CLI)', () => {
  test('grid keys: control first, then every probeable roster agent in roster order', () => {
    const keys = gridKeys('roster-v1.0');
    assert.equal(keys[0], 'control:browser');
    assert.deepEqual(keys.slice(1), probeableAgents().map((a) => `grid:${a.token}`));
    assert.ok(!keys.includes('grid:Google-Extended'), 'token-only agents are not probed');
  });

  test('probeGrid through one egress gives an observation and an outcome per key', async () => {
    const run = await probeGrid(world.domain('cf-agents-challenged'), world.egress().user, { timeoutMs: 5_000, network: 'networkA' });
    assert.deepEqual(run.observations.map((o) => o.key), gridKeys());
    assert.equal(run.outcomes['control:browser'], 'pass');
    assert.equal(run.outcomes['grid:GPTBot'], 'challenge');
    const gpt = run.observations.find((o) => o.key === 'grid:GPTBot')!;
    assert.equal(gpt.status, 403);
    assert.ok(gpt.bodyBytes > 0 && gpt.timingMs >= 0 && gpt.error === undefined);
  });

  test('the scenario list is big enough and names are unique', () => {
    assert.ok(SCENARIOS.length >= 30);
    assert.equal(new Set(SCENARIOS.map((s) => s.name)).size, SCENARIOS.length);
  });
});
