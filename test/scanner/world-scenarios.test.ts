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
import { PREVIEW_RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION, RUBRIC_VERSION } from '../../src/scanner/versions.ts';
import type { CheckResult, EngineReport } from '../../src/scanner/types.ts';

type Recorded = { rubric: string; scenarios: Record<string, { headline?: string; value: number | null; categories: Record<string, number | null>; checks: string[] }> };
const recorded = (rubric: string) => JSON.parse(readFileSync(new URL(`../fixtures/world-scores/${rubric}.json`, import.meta.url), 'utf8')) as Recorded;
/** rubric-v1.1's numbers, recorded before the preview rubric existed; a scan that asks for rubric-v1.1 must still give them. */
const FROZEN = recorded('rubric-v1.1');
/** rubric-v1.2's numbers (and headlines), recorded when it was released (scripts/fixtures/record-world-scores.ts). */
const FROZEN_V12 = recorded('rubric-v1.2');

function recordedForm(report: EngineReport, withHeadline: boolean) {
  return {
    ...(withHeadline ? { headline: report.headline } : {}),
    value: report.score.value, categories: report.score.categories, checks: report.checks.map((c) => [c.id, c.status, c.credit ?? null].join(' ')),
  };
}

/** Everything of a report but what its rubric decides (the score, the checks, the fixes drawn from them, the rubric's name). */
function beyondRubric(report: EngineReport) {
  const { score: _s, checks: _c, platformFixes: _f, versions, ...rest } = report;
  return { ...rest, versions: { ...versions, rubric: null } };
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
  test('every scenario whose rubric-v1.1 or rubric-v1.2 score was recorded still exists (a recorded score is never dropped silently)', () => {
    assert.equal(FROZEN.rubric, PREVIOUS_RUBRIC_VERSION);
    assert.equal(FROZEN_V12.rubric, RUBRIC_VERSION, 'the recorded scores belong to the current rubric; record a new file when the rubric version changes');
    const names = new Set(SCENARIOS.map((s) => s.name));
    for (const name of [...Object.keys(FROZEN.scenarios), ...Object.keys(FROZEN_V12.scenarios)]) assert.ok(names.has(name), name);
  });
  for (const s of SCENARIOS) {
    test(`scenario ${s.name}: ${s.about}`, async () => {
      const networks = world.egress({ networkB: s.scan?.networkB });
      const scanner = createScanner({ networks, deadlineMs: 15_000, probeTimeoutMs: s.scan?.probeTimeoutMs ?? 5_000, now: FIXED, doh: { url: world.dohUrl, userAgent: 'agent-readiness/1.0 (world)' } });
      const { report, evidence, files } = await scanner.scan(world.domain(s.name), s.scan?.intent ? { intent: s.scan.intent } : {});
      assertExpectation(report, s.expect, s.name);
      // Where robots.txt and the edge disagree, the proposed patch makes robots.txt say what the edge does.
      assertRobotsPatch(report, files, s.name);

      // Each published rubric's numbers never move: the default scan gives rubric-v1.2's as
      // recorded, and the same site scanned asking for rubric-v1.1 gives rubric-v1.1's, byte for
      // byte, with nothing else of the report changed. The preview recomputes from its own checks.
      assert.equal(report.versions.rubric, RUBRIC_VERSION, `${s.name}: new scans are scored with the current rubric`);
      assert.equal(report.score.rubricVersion, RUBRIC_VERSION);
      const v12 = FROZEN_V12.scenarios[s.name];
      if (v12) assert.deepEqual(recordedForm(report, true), v12, `${s.name}: ${RUBRIC_VERSION} headline, score and checks as recorded`);
      const old = await scanner.scan(world.domain(s.name), { rubric: PREVIOUS_RUBRIC_VERSION, ...(s.scan?.intent ? { intent: s.scan.intent } : {}) });
      assert.equal(old.report.versions.rubric, PREVIOUS_RUBRIC_VERSION);
      assert.equal(old.report.score.rubricVersion, PREVIOUS_RUBRIC_VERSION);
      const v11 = FROZEN.scenarios[s.name];
      if (v11) assert.equal(JSON.stringify(recordedForm(old.report, false)), JSON.stringify(v11), `${s.name}: ${PREVIOUS_RUBRIC_VERSION} score and checks as recorded, byte for byte`);
      assert.deepEqual(beyondRubric(old.report), beyondRubric(report), `${s.name}: the rubric asked for changes the score and the checks only`);
      assert.deepEqual(old.report.score, rescore(old.report.checks, PREVIOUS_RUBRIC_VERSION), `${s.name}: the rubric-v1.1 score recomputes from its checks`);
      assert.equal(report.preview?.rubricVersion, PREVIEW_RUBRIC_VERSION, `${s.name}: carries the preview`);
      assert.deepEqual(report.preview.score, rescore(report.preview.checks, PREVIEW_RUBRIC_VERSION), `${s.name}: the preview score recomputes from its checks`);
      assert.deepEqual(report.score, rescore(report.checks, RUBRIC_VERSION), `${s.name}: the score recomputes from its checks`);
      assert.ok(report.preview.changes.every((c) => c.change === 'added' || (c.change === 'revised' && c.weightBefore === c.weightAfter)), 'the preview only adds checks and revises some at the same weight');

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
