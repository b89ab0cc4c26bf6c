// Every scenario of the test world yields what shared/design/verdicts.md prescribes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { SCENARIOS } from '../world/scenarios/index.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { CONTROL_KEY } from '../../src/scanner/grid.ts';
import { assertExpectation } from './expect.ts';
import { assertRobotsPatch } from './robots-patch-check.ts';
import { requestKindOf } from '../../src/scanner/requests.ts';
import { readFileSync } from 'node:fs';
import { computeScore } from '../../src/scanner/scoring.ts';
import { PREVIEW_RUBRIC_VERSION, RUBRIC_VERSION } from '../../src/scanner/versions.ts';
import type { CheckResult, EngineReport } from '../../src/scanner/types.ts';

/** rubric-v1.1's numbers, recorded before the preview rubric existed (scripts/fixtures/record-world-scores.ts). */
const FROZEN = JSON.parse(readFileSync(new URL('../fixtures/world-scores/rubric-v1.1.json', import.meta.url), 'utf8')) as {
  rubric: string; scenarios: Record<string, { value: number | null; categories: Record<string, number | null>; checks: string[] }>;
};

function recordedForm(report: EngineReport) {
  return { value: report.score.value, categories: report.score.categories, checks: report.checks.map((c) => [c.id, c.status, c.credit ?? null].join(' ')) };
}

/** A score recomputed from a list of check results alone. */
function rescore(checks: readonly CheckResult[], version: string) {
  return computeScore(checks.map((result) => ({ result, thousandths: Math.round(1000 * (result.credit ?? (result.status === 'pass' ? 1 : 0))) })), version);
}

let world: World;
before(async () => { world = await startWorld(); });
after(async () => { await world.stop(); });

const FIXED = () => new Date('2026-11-22T00:00:00Z');

describe('test world scenarios', () => {
  test('every scenario whose rubric-v1.1 score was recorded still exists (a recorded score is never dropped silently)', () => {
    assert.equal(FROZEN.rubric, RUBRIC_VERSION, 'the recorded scores belong to the current rubric; record a new file when the rubric version changes');
    const names = new Set(SCENARIOS.map((s) => s.name));
    for (const name of Object.keys(FROZEN.scenarios)) assert.ok(names.has(name), name);
  });
  for (const s of SCENARIOS) {
    test(`scenario ${s.name}: ${s.about}`, async () => {
      const networks = world.egress({ networkB: s.scan?.networkB });
      const scanner = createScanner({ networks, deadlineMs: 15_000, probeTimeoutMs: s.scan?.probeTimeoutMs ?? 5_000, now: FIXED });
      const { report, evidence, files } = await scanner.scan(world.domain(s.name), s.scan?.intent ? { intent: s.scan.intent } : {});
      assertExpectation(report, s.expect, s.name);
      // Where robots.txt and the edge disagree, the proposed patch makes robots.txt say what the edge does.
      assertRobotsPatch(report, files, s.name);

      // The current rubric's numbers never move; the preview is present and recomputes from its own checks.
      const frozen = FROZEN.scenarios[s.name];
      if (FROZEN.rubric === RUBRIC_VERSION && frozen) assert.deepEqual(recordedForm(report), frozen, `${s.name}: ${RUBRIC_VERSION} score and checks as recorded`);
      assert.equal(report.preview?.rubricVersion, PREVIEW_RUBRIC_VERSION, `${s.name}: carries the preview`);
      assert.deepEqual(report.preview.score, rescore(report.preview.checks, PREVIEW_RUBRIC_VERSION), `${s.name}: the preview score recomputes from its checks`);
      assert.deepEqual(report.score, rescore(report.checks, RUBRIC_VERSION), `${s.name}: the score recomputes from its checks`);
      assert.ok(report.preview.changes.length > 0 && report.preview.changes.every((c) => c.change === 'added' || (c.change === 'revised' && c.weightBefore === c.weightAfter)), 'the preview only adds checks and revises some at the same weight');

      const controls = evidence.filter((e) => e.key === CONTROL_KEY);
      const control = s.expect.edge?.control;
      if (control) {
        assert.equal(controls.find((c) => c.network === 'networkA')?.outcome, control[0], `${s.name}: control on networkA`);
        assert.equal(controls.find((c) => c.network === 'networkB')?.outcome, control[1], `${s.name}: control on networkB`);
      }
      // Invariants that hold for every scan.
      if (report.headline === 'agent-hostile') assert.ok(controls.every((c) => c.outcome === 'pass'), 'agent-hostile needs both controls passing');
      const ids = new Set(evidence.map((e) => e.id));
      assert.equal(ids.size, evidence.length, 'evidence ids are unique');
      assert.deepEqual(report.evidenceRefs, evidence.map((e) => e.id));
      assert.ok(evidence.length <= 200, 'at most 200 requests per scan');
      assert.deepEqual(JSON.parse(JSON.stringify(evidence)), evidence, 'evidence is JSON-serialisable');
      for (const r of report.reasons) assert.doesNotMatch(r, /\b(bot|crawler) is blocked\b/i, 'never says a vendor bot is blocked');
      // The disclosure names every kind of request this scan really made, and each repeats as curl.
      for (const e of evidence) {
        const kind = requestKindOf(e.key);
        assert.ok(kind, `${s.name}: evidence key ${e.key} is a kind of request probeMethod does not disclose`);
        assert.ok(report.probeMethod.includes(kind.what), `${s.name}: probeMethod names ${kind.key}`);
        assert.equal(Object.entries(e.requestHeaders ?? {}).find(([n]) => n.toLowerCase() === 'user-agent')?.[1], e.userAgent);
        assert.ok(e.curl?.startsWith('curl ') && e.curl.includes(e.userAgent.split("'")[0]!), `${s.name}: ${e.key} carries its curl`);
      }
    });
  }
});
