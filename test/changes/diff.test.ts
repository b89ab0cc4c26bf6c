// The pure comparison of two reports (src/changes/): what it lists, what it never claims, and
// its sentences. Reports here are the engine's shape built by hand, so each case changes one thing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diffReports, NotComparable, type DiffSideInput } from '../../src/changes/diff.ts';
import { MAX_DIFF_EDITS, normaliseText, robotsTxtChange } from '../../src/changes/robots-diff.ts';
import type { CheckResult, MatrixEntry } from '../../src/scanner/types.ts';

const entry = (ua: string, over: Partial<MatrixEntry> = {}): MatrixEntry => ({
  ua, intent: 'training', robotsSays: 'allowed', edgeDoes: { networkA: 'pass', networkB: 'pass' }, httpStatus: { networkA: 200, networkB: 200 },
  verdict: 'pass', measurement: 'measured', attributedVendors: [], notes: [], ...over,
});
const check = (id: string, status: CheckResult['status'], credit?: number): CheckResult => ({ id, category: 'access', weight: 2, status, ...(credit !== undefined ? { credit } : {}) });

function side(over: { scanId?: string; domain?: string; headline?: DiffSideInput['report']['headline']; score?: number | null; rubric?: string; checks?: CheckResult[]; matrix?: MatrixEntry[]; usable?: Array<'networkA' | 'networkB'>; robots?: DiffSideInput['robotsTxt']; at?: string } = {}): DiffSideInput {
  const scanId = over.scanId ?? '11111111-1111-4111-8111-111111111111';
  return {
    report: {
      scanId, domain: over.domain ?? 'shop.example', scannedAt: over.at ?? '2026-11-01T00:00:00.000Z', headline: over.headline ?? 'open',
      score: { value: over.score === undefined ? 80 : over.score, rubricVersion: over.rubric ?? 'rubric-v1.1' }, confidence: 'high',
      checks: over.checks ?? [check('a.one', 'pass'), check('a.two', 'fail')],
      matrix: over.matrix ?? [entry('GPTBot'), entry('ClaudeBot'), entry('Google-Extended', { edgeDoes: null, httpStatus: null, verdict: 'not-probeable' })],
    },
    reportUrl: `https://ar.example/r/${scanId}`,
    usable: over.usable ?? ['networkA', 'networkB'],
    robotsTxt: over.robots === undefined ? { state: 'present', body: 'User-agent: *\nAllow: /\n' } : over.robots,
  };
}
const B = '22222222-2222-4222-8222-222222222222';
const run = (a: DiffSideInput, b: DiffSideInput) => diffReports(a, b, 'https://ar.example/r/x/diff/y');

describe('diffReports (pure)', () => {
  test('the same report against itself: nothing changed, no sentence', () => {
    const d = run(side(), side({ scanId: B }));
    assert.deepEqual([d.summary, d.checks, d.cells, d.vendors, d.headline.changed, d.score.delta, d.robotsTxt.changed], [[], [], [], { appeared: [], left: [] }, false, 0, false]);
  });

  test('two domains cannot be compared', () => {
    assert.throws(() => run(side(), side({ domain: 'other.example' })), NotComparable);
  });

  const cases: Array<{ name: string; before?: Parameters<typeof side>[0]; after: Parameters<typeof side>[0]; expect: (d: ReturnType<typeof run>) => void; says?: RegExp }> = [
    {
      name: 'headline and score', after: { headline: 'partially-blocked', score: 71 },
      expect: (d) => assert.deepEqual([d.headline, d.score], [{ before: 'open', after: 'partially-blocked', changed: true }, { before: 80, after: 71, delta: -9 }]),
      says: /The score fell by 9, from 80 to 71\./,
    },
    {
      name: 'a rubric change: scores not compared', after: { rubric: 'rubric-v1.2', score: 60 },
      expect: (d) => assert.deepEqual([d.sameRubric, d.score.delta], [false, null]), says: /rubric changed .* not compared/,
    },
    {
      name: 'a rubric change with equal scores still says the rubric changed', after: { rubric: 'rubric-v1.2' },
      expect: (d) => assert.deepEqual([d.sameRubric, d.score, d.summary[0]], [false, { before: 80, after: 80, delta: null },
        'The rubric changed (rubric-v1.1 → rubric-v1.2), so the scores (80 → 80) are not compared, and only the checks both rubrics share are.']),
    },
    {
      name: 'across rubrics only the checks both share are compared: one only in the new rubric, one only in the old, one shared that changed',
      before: { checks: [check('a.one', 'pass'), check('a.two', 'fail'), check('a.gone', 'pass')] },
      after: { rubric: 'rubric-v1.2', checks: [check('a.one', 'fail'), check('a.two', 'fail'), check('a.new', 'fail')] },
      expect: (d) => assert.deepEqual(d.checks.map((c) => [c.id, c.before, c.after]), [['a.one', { status: 'pass' }, { status: 'fail' }]]),
      says: /Checks that passed and now fail: a\.one\./,
    },
    {
      name: 'a check pass → fail, a credit change, a check only in one rubric',
      after: { checks: [check('a.one', 'fail'), check('a.two', 'pass', 0.5), check('a.three', 'pass')] },
      expect: (d) => assert.deepEqual(d.checks.map((c) => [c.id, c.before, c.after]), [
        ['a.one', { status: 'pass' }, { status: 'fail' }],
        ['a.two', { status: 'fail' }, { status: 'pass', credit: 0.5 }],
        ['a.three', null, { status: 'pass' }],
      ]),
      says: /Checks that passed and now fail: a\.one\./,
    },
    {
      name: 'GPTBot blocked on network A only',
      after: { matrix: [entry('GPTBot', { edgeDoes: { networkA: 'block', networkB: 'pass' }, verdict: 'inconclusive' }), entry('ClaudeBot'), entry('Google-Extended', { edgeDoes: null, httpStatus: null, verdict: 'not-probeable' })] },
      expect: (d) => assert.deepEqual(d.cells.map((c) => [c.agent, c.network, c.edge.before, c.edge.after, c.usable.after]), [['GPTBot', 'networkA', 'pass', 'block', true]]),
      says: /Requests identifying as GPTBot from network A are now blocked \(they were served\)\./,
    },
    {
      name: 'robots.txt now disallows a token-only agent: one cell without a network',
      after: { matrix: [entry('GPTBot'), entry('ClaudeBot'), entry('Google-Extended', { edgeDoes: null, httpStatus: null, verdict: 'not-probeable', robotsSays: 'blocked' })] },
      expect: (d) => assert.deepEqual(d.cells.map((c) => [c.agent, c.network, c.robotsSays]), [['Google-Extended', null, { before: 'allowed', after: 'blocked' }]]),
      says: /robots\.txt now disallows Google-Extended \(before: allowed\)\./,
    },
    {
      name: 'network B unusable in the later scan: its cells change, no sentence claims the agents were denied',
      after: { usable: ['networkA'], matrix: [entry('GPTBot', { edgeDoes: { networkA: 'pass', networkB: 'transport-error' } }), entry('ClaudeBot', { edgeDoes: { networkA: 'pass', networkB: 'transport-error' } }), entry('Google-Extended', { edgeDoes: null, httpStatus: null, verdict: 'not-probeable' })] },
      expect: (d) => {
        assert.equal(d.cells.length, 2);
        assert.ok(d.cells.every((c) => c.usable.before && !c.usable.after));
        assert.ok(!d.summary.some((s) => /Requests identifying/.test(s)), d.summary.join('|'));
      },
      says: /network B's browser control failed in the later scan/,
    },
    {
      name: 'vendors appear and leave',
      before: { matrix: [entry('GPTBot', { attributedVendors: ['akamai'] })] },
      after: { matrix: [entry('GPTBot', { attributedVendors: ['cloudflare'] })] },
      expect: (d) => assert.deepEqual([d.vendors.appeared.map((v) => v.id), d.vendors.left.map((v) => v.id)], [['cloudflare'], ['akamai']]),
      says: /Edge vendors now seen: Cloudflare\./,
    },
    {
      name: 'robots.txt gained a group',
      after: { robots: { state: 'present', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' } },
      expect: (d) => assert.deepEqual([d.robotsTxt.changed, d.robotsTxt.added, d.robotsTxt.removed], [true, 3, 0]),
      says: /robots\.txt changed: 3 lines added, 0 removed\./,
    },
    {
      name: 'robots.txt unreadable in the later scan: nothing claimed',
      after: { robots: { state: 'unknown' } },
      expect: (d) => assert.deepEqual([d.robotsTxt.changed, d.robotsTxt.unifiedDiff, d.robotsTxt.after], [null, null, 'unknown']),
    },
    {
      name: 'robots.txt not kept for the earlier scan: nothing claimed',
      before: { robots: null },
      after: {},
      expect: (d) => assert.deepEqual([d.robotsTxt.changed, d.robotsTxt.before], [null, 'not-kept']),
    },
    {
      name: 'robots.txt went away (a 404)',
      after: { robots: { state: 'absent' } },
      expect: (d) => assert.deepEqual([d.robotsTxt.changed, d.robotsTxt.removed], [true, 2]),
      says: /robots\.txt went away/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const d = run(side(c.before), side({ scanId: B, ...c.after }));
      c.expect(d);
      if (c.says) assert.ok(d.summary.some((s) => c.says!.test(s)), `summary: ${d.summary.join(' | ')}`);
    });
  }

  test('the same inputs give the same diff (determinism)', () => {
    const a = side();
    const b = side({ scanId: B, headline: 'agent-hostile', matrix: [entry('GPTBot', { edgeDoes: { networkA: 'challenge', networkB: 'challenge' }, verdict: 'denied', attributedVendors: ['cloudflare'] })] });
    assert.deepEqual(run(a, b), run(a, b));
  });
});

describe('robots.txt line diff', () => {
  test('line endings, a byte-order mark and a missing last newline are not changes', () => {
    assert.equal(normaliseText('\uFEFFUser-agent: *\r\nAllow: /'), 'User-agent: *\nAllow: /\n');
    const r = robotsTxtChange({ state: 'present', body: 'User-agent: *\r\nAllow: /\r\n' }, { state: 'present', body: 'User-agent: *\nAllow: /' }, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    assert.equal(r.changed, false);
  });

  test('more changed lines than the bound: reported as changed, not drawn', () => {
    const many = (p: string) => Array.from({ length: MAX_DIFF_EDITS + 10 }, (_, i) => `Disallow: /${p}${i}`).join('\n');
    const r = robotsTxtChange({ state: 'present', body: many('a') }, { state: 'present', body: many('b') }, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    assert.deepEqual([r.changed, r.unifiedDiff], [true, null]);
    assert.match(r.note, /too many to list/);
  });

  test('the unified diff applies with GNU patch (an implementation we did not write)', (t) => {
    let patchBin = '';
    try {
      patchBin = execFileSync('sh', ['-c', 'command -v patch'], { encoding: 'utf8' }).trim();
    } catch { /* absent */ }
    if (!patchBin) {
      t.skip('SKIPPED LOUDLY: GNU patch is not installed (apt-get install patch)');
      console.warn('SKIPPING the GNU patch cross-check: patch is not installed');
      return;
    }
    const before = 'User-agent: *\nAllow: /\n\nSitemap: https://shop.example/sitemap.xml\n';
    const after = 'User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\nDisallow: /cart\n';
    const r = robotsTxtChange({ state: 'present', body: before }, { state: 'present', body: after }, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    const dir = mkdtempSync(path.join(tmpdir(), 'robots-diff-'));
    writeFileSync(path.join(dir, 'robots.txt'), before);
    writeFileSync(path.join(dir, 'change.diff'), r.unifiedDiff!);
    execFileSync(patchBin, ['-s', 'robots.txt', 'change.diff'], { cwd: dir });
    assert.equal(execFileSync('cat', ['robots.txt'], { cwd: dir, encoding: 'utf8' }), after);
  });
});
