// What counts as a change (src/watches/alerts.ts, /methodology.md "When a watch alerts"), on
// diffs built by the real comparison (src/changes/diff.ts) from two canned reports; and the
// period arithmetic of src/watches/schedule.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffReports, type ComparedReport, type DiffSideInput, type ReportDiff } from '../../src/changes/diff.ts';
import { changesWorthAlert } from '../../src/watches/alerts.ts';
import { nextPeriod, periodMs } from '../../src/watches/schedule.ts';
import { cannedReport } from '../scan-api/fixtures.ts';

const base = cannedReport('alert-site.com');
function side(over: Partial<ComparedReport> = {}, usable: DiffSideInput['usable'] = ['networkA', 'networkB'], robots = 'User-agent: *\nAllow: /\n'): DiffSideInput {
  const r = { scanId: over.scanId ?? 'x', domain: 'alert-site.com', scannedAt: '2026-01-01T00:00:00.000Z', headline: base.headline, score: base.score, confidence: base.confidence, checks: base.checks, matrix: base.matrix, ...over };
  return { report: r, reportUrl: `https://ar.test/r/${r.scanId}`, usable, robotsTxt: { state: 'present', body: robots } };
}
const diff = (a: DiffSideInput, b: DiffSideInput): ReportDiff => diffReports(a, b, 'https://ar.test/diff');
const kinds = (d: ReportDiff, threshold = 5) => changesWorthAlert(d, threshold).map((c) => c.kind);

test('no change, or changes that do not count, send nothing', () => {
  assert.deepEqual(kinds(diff(side(), side())), []);
  // The score rose, a check now passes, confidence changed: shown in the diff, no alert.
  const better = side({ score: { ...base.score, value: 90 }, confidence: 'medium', checks: base.checks.map((c) => (c.status === 'fail' ? { ...c, status: 'pass' as const } : c)) });
  assert.deepEqual(kinds(diff(side(), better)), []);
  // A fall smaller than the threshold.
  assert.deepEqual(kinds(diff(side(), side({ score: { ...base.score, value: 68 } }))), []);
});

test('each rule alone: headline, score fall at the threshold, check pass→fail, robots.txt', () => {
  assert.deepEqual(kinds(diff(side(), side({ headline: 'agent-hostile' }))), ['headline']);
  assert.deepEqual(kinds(diff(side(), side({ score: { ...base.score, value: 67 } }))), ['score']);
  assert.deepEqual(kinds(diff(side(), side({ score: { ...base.score, value: 67 } })), 10), [], 'a watch with threshold 10');
  const failing = side({ checks: base.checks.map((c) => (c.id === 'robots-txt-present' ? { ...c, status: 'fail' as const } : c)) });
  assert.deepEqual(changesWorthAlert(diff(side(), failing), 5), [{ kind: 'check', text: 'The check robots-txt-present passed and now fails.' }]);
  assert.deepEqual(kinds(diff(side(), side({}, undefined, 'User-agent: *\nDisallow: /private\n'))), ['robots-txt']);
});

test('a cell from pass to a denial alerts only on a network usable in both scans', () => {
  const blocked = { matrix: base.matrix.map((m) => (m.ua === 'ClaudeBot' ? { ...m, edgeDoes: { networkA: 'challenge' as const, networkB: 'pass' as const }, verdict: 'denied' as const } : m)) };
  const got = changesWorthAlert(diff(side(), side(blocked)), 5);
  assert.deepEqual(got, [{ kind: 'cell', text: 'Requests identifying as ClaudeBot from network A are now met with a challenge (they were served).' }]);
  assert.deepEqual(kinds(diff(side(), side(blocked, ['networkB']))), [], 'networkA\'s control failed in the later scan');
  const served = { matrix: base.matrix.map((m) => (m.ua === 'GPTBot' ? { ...m, edgeDoes: { networkA: 'pass' as const, networkB: 'pass' as const } } : m)) };
  assert.deepEqual(kinds(diff(side(), side(served))), [], 'a denial lifted is not an alert');
});

test('periods: a day or a week, at most WATCH_INTERVAL_S; missed periods are not replayed', () => {
  assert.equal(periodMs('day', undefined), 86_400_000);
  assert.equal(periodMs('week', undefined), 604_800_000);
  assert.equal(periodMs('week', 5), 5000);
  assert.equal(periodMs('day', 999_999), 86_400_000, 'the setting only shortens');
  assert.equal(nextPeriod(0, 1000, 0, 500), 1);
  assert.equal(nextPeriod(0, 1000, 3, 3999), 4);
  assert.equal(nextPeriod(0, 1000, 3, 9500), 9, 'after downtime: the current period');
});
