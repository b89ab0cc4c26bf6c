// Properties over random edge behaviour: the safety rules hold whatever the edge does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decideHeadline } from '../../src/scanner/headline.ts';
import { runRubric } from '../../src/scanner/rubric.ts';
import { probeableAgents } from '../../src/scanner/roster.ts';
import type { NetworkName } from '../../src/scanner/types.ts';
import { evidence, type Resp } from './fixtures.ts';
import { htmlPage } from '../world/site.ts';

const RESPONSES: Resp[] = [
  { body: htmlPage() },
  { status: 403, body: 'Forbidden' },
  { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '<title>Just a moment...</title>' },
  { status: 429, body: 'slow down' },
  { status: 401, body: 'auth' },
  { status: 503, body: 'down' },
  { status: 404, body: 'nope' },
  { error: 'TIMEOUT' },
  { error: 'UNCONFIGURED' },
];
const tokens = probeableAgents().map((a) => a.token);
const pick = fc.integer({ min: 0, max: RESPONSES.length - 1 });
const world = fc.record({
  controlA: pick, controlB: pick,
  cells: fc.array(fc.tuple(pick, pick), { minLength: tokens.length, maxLength: tokens.length }),
  robotsBlocksAll: fc.boolean(),
});

test('property: whatever the edge does, agent-hostile needs both controls passing, no usable network means unknown, and access never fails unmeasured', () => {
  fc.assert(
    fc.property(world, (w) => {
      const cell = new Map(tokens.map((t, i) => [t, w.cells[i]!]));
      const ev = evidence({
        control: (n: NetworkName) => RESPONSES[n === 'networkA' ? w.controlA : w.controlB],
        agent: (t, n) => RESPONSES[cell.get(t)![n === 'networkA' ? 0 : 1]],
        ...(w.robotsBlocksAll ? { robots: { body: 'User-agent: *\nDisallow: /\n', headers: { 'content-type': 'text/plain' } } } : {}),
      });
      const h = decideHeadline(ev);
      const controlsPass = ev.controls.networkA.outcome === 'pass' && ev.controls.networkB.outcome === 'pass';
      if (h.headline === 'agent-hostile') assert.ok(controlsPass && h.vantagesConfirmed);
      if (h.vantagesConfirmed) assert.ok(controlsPass);
      if (ev.usable.length === 0) assert.equal(h.headline, 'unknown');
      const { checks, score } = runRubric(ev, 'general');
      assert.ok(checks.every((c) => c.status !== 'error'), 'no check throws');
      if (ev.usable.length === 0) for (const c of checks.filter((x) => x.category === 'access')) assert.equal(c.status, 'inconclusive', c.id);
      if (score.value !== null) assert.ok(score.value >= 0 && score.value <= 100 && Number.isInteger(score.value));
    }),
    { numRuns: 150, seed: 20261122 },
  );
});
