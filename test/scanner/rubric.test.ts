// Score formula, catalog and the frozen rubric snapshot.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { computeScore, MIN_DECIDED, weightedPercent, type ScoredCheck } from '../../src/scanner/scoring.ts';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { CHECKS } from '../../src/scanner/checks/index.ts';
import { PREVIEW_RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION, RUBRIC_VERSION } from '../../src/scanner/versions.ts';
import { PREVIEW_CHECKS, PREVIEW_REVISED } from '../../src/scanner/checks/preview.ts';
import { V12_ADDED, V12_CHECKS, V12_REVISED } from '../../src/scanner/checks/v1.2.ts';
import { CURRENT_RUBRIC, PREVIEW_RUBRIC, PREVIOUS_RUBRIC, RUBRICS, SCORING_RUBRICS, rubricChanges, scoringRubric } from '../../src/scanner/rubrics.ts';
import type { CheckStatus } from '../../src/scanner/types.ts';

const sc = (weight: number, status: CheckStatus, thousandths = status === 'pass' ? 1000 : 0, category = 'access'): ScoredCheck => ({ result: { id: `c${weight}${status}${thousandths}`, category, weight, status }, thousandths });

describe('score formula (verdicts.md): floor((100·Σwc + ½Σw) / Σw), exact', () => {
  const table: Array<[string, ScoredCheck[], number | null]> = [
    ['all pass', [sc(10, 'pass'), sc(5, 'pass')], 100],
    ['all fail', [sc(10, 'fail'), sc(5, 'fail')], 0],
    ['inconclusive, skipped and error are out of both sums', [sc(10, 'pass'), sc(50, 'inconclusive'), sc(50, 'skipped'), sc(50, 'error')], 100],
    ['half up: 2 of 3 equal weights = 66.67 -> 67', [sc(1, 'pass'), sc(1, 'pass'), sc(1, 'fail')], 67],
    ['exactly .5 rounds up: 1 of 8 = 12.5 -> 13', [sc(1, 'pass'), ...Array.from({ length: 7 }, () => sc(1, 'fail'))], 13],
    ['partial credit in thousandths: w3 at 0.333 = 33.3 -> 33', [sc(3, 'fail', 333)], 33],
    ['domain-facts worked example -> 79', [sc(10, 'pass', 750), sc(10, 'pass'), sc(6, 'pass'), sc(8, 'pass', 800), sc(8, 'pass'), sc(4, 'fail'), sc(3, 'pass'), sc(3, 'fail')], 79],
    ['nothing decided', [sc(3, 'inconclusive')], null],
  ];
  for (const [name, checks, want] of table) test(`score: ${name}`, () => assert.equal(weightedPercent(checks), want));

  test('score: null with display "not enough signal" below minDecided, categories null when none decided', () => {
    const few = computeScore(Array.from({ length: MIN_DECIDED - 1 }, () => sc(1, 'pass')));
    assert.equal(few.value, null);
    assert.equal(few.display, 'not enough signal');
    assert.equal(few.minDecided, MIN_DECIDED);
    const enough = computeScore([...Array.from({ length: MIN_DECIDED }, () => sc(2, 'pass')), sc(2, 'fail', 0, 'content')]);
    assert.equal(enough.value, 89);
    assert.equal(enough.categories['access'], 100);
    assert.equal(enough.categories['content'], 0);
    assert.equal(enough.categories['trust'], null);
    assert.equal(enough.rubricVersion, RUBRIC_VERSION);
  });
});

describe('catalog and rubric freeze', () => {
  test('catalog: derived from the registry with at least 25 checks, unique ids, every field filled', () => {
    const cat = buildCatalog();
    assert.equal(cat.rubricVersion, 'rubric-v1.2');
    assert.equal(cat.minDecidedForGrade, MIN_DECIDED);
    assert.deepEqual(cat.profiles, ['general', 'dev-platform', 'docs', 'publisher']);
    assert.ok(cat.checks.length >= 25);
    assert.equal(new Set(cat.checks.map((c) => c.id)).size, cat.checks.length);
    for (const c of cat.checks) {
      assert.match(c.id, /^(access|policy|discovery|content|trust)\.[a-z0-9-]+$/);
      assert.ok(c.name && c.why && c.fix && c.weight > 0 && c.profiles.length > 0, c.id);
    }
    for (const k of ['idStability', 'versioning', 'deprecation'] as const) assert.ok(cat.contract[k].length > 20);
    assert.match(cat.scoring, /floor/);
  });

  test('every check of every rubric cites the standard it enforces, and its file is named after its id', () => {
    for (const c of PREVIEW_CHECKS) {
      assert.ok(c.standard.length > 3, c.id);
      const src = readFileSync(new URL(`../../src/scanner/checks/${c.revision ? 'revised/' : ''}${c.id}.ts`, import.meta.url), 'utf8');
      assert.match(src, new RegExp(`id: '${c.id.replace('.', '\\.')}'`));
    }
  });

  const snapshot = JSON.parse(readFileSync(new URL('./rubric-snapshot.json', import.meta.url), 'utf8')) as Record<string, Array<[string, number, string]>>;
  for (const r of RUBRICS) {
    test(`rubric freeze: ${r.version}'s ids, weights and profiles match its snapshot (a change publishes a new version)`, () => {
      assert.ok(snapshot[r.version], `no snapshot for ${r.version}: add one to test/scanner/rubric-snapshot.json (keep the old versions)`);
      assert.deepEqual(r.checks.map((c) => [c.id, c.weight, c.profiles.join(',')]), snapshot[r.version], `the ${r.version} registry changed without a rubric version bump`);
    });
  }

  test('published rubrics: v1.2 is the default, v1.1 still scores a scan that asks for it, the preview never scores one', () => {
    assert.deepEqual(RUBRICS.map((r) => [r.version, r.stage]), [[RUBRIC_VERSION, 'current'], [PREVIOUS_RUBRIC_VERSION, 'previous'], [PREVIEW_RUBRIC_VERSION, 'preview']]);
    assert.deepEqual([RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION, PREVIEW_RUBRIC_VERSION], ['rubric-v1.2', 'rubric-v1.1', 'rubric-v1.3-preview']);
    assert.deepEqual(SCORING_RUBRICS.map((r) => r.version), ['rubric-v1.2', 'rubric-v1.1']);
    assert.equal(scoringRubric(undefined), CURRENT_RUBRIC);
    assert.equal(scoringRubric('rubric-v1.1'), PREVIOUS_RUBRIC);
    for (const bad of [PREVIEW_RUBRIC_VERSION, 'rubric-v1.2-preview', 'rubric-v1.0', 'RUBRIC-V1.2', '']) assert.equal(scoringRubric(bad), undefined, bad);
    assert.equal(PREVIOUS_RUBRIC.checks, CHECKS, 'rubric-v1.1 is the frozen registry itself');
  });

  test('rubric-v1.2 is rubric-v1.2-preview released as it was: v1.1 in order at its weights, two revised, eight added', () => {
    // The weights shown under `preview` for a whole release are the weights scored now: no site's number moves at the release.
    assert.deepEqual(snapshot['rubric-v1.2'], snapshot['rubric-v1.2-preview']);
    assert.deepEqual(V12_CHECKS.slice(0, CHECKS.length).map((c) => [c.id, c.weight, c.profiles]), CHECKS.map((c) => [c.id, c.weight, c.profiles]), 'v1.2 keeps every v1.1 check, in order');
    const revised = V12_CHECKS.slice(0, CHECKS.length).filter((c, i) => c !== CHECKS[i]).map((c) => c.id);
    assert.deepEqual(revised, V12_REVISED.map((c) => c.id), 'a v1.1 check differs in v1.2 only when it is listed as revised');
    const changes = rubricChanges(PREVIOUS_RUBRIC, CURRENT_RUBRIC);
    assert.deepEqual(changes.filter((c) => c.change === 'revised').map((c) => c.checkId), revised, 'and the changes list says so');
    assert.deepEqual(changes.filter((c) => c.change === 'added').map((c) => c.checkId), V12_ADDED.map((c) => c.id));
    assert.equal(changes.length, revised.length + V12_ADDED.length, 'nothing removed or reweighted');
  });

  test('preview: rubric-v1.3-preview keeps every rubric-v1.2 check in order at its weight, judging anew only those PREVIEW_REVISED names', () => {
    assert.deepEqual(PREVIEW_CHECKS.slice(0, V12_CHECKS.length).map((c) => [c.id, c.weight, c.profiles]), V12_CHECKS.map((c) => [c.id, c.weight, c.profiles]), 'the preview keeps every current check, in order');
    const revised = PREVIEW_CHECKS.slice(0, V12_CHECKS.length).filter((c, i) => c !== V12_CHECKS[i]).map((c) => c.id);
    assert.deepEqual(revised, PREVIEW_REVISED.map((c) => c.id), 'a current check differs in the preview only when it is listed as revised');
    assert.deepEqual(rubricChanges(CURRENT_RUBRIC, PREVIEW_RUBRIC!).filter((c) => c.change === 'revised').map((c) => c.checkId), revised, 'and the changes list says so');
  });
});
