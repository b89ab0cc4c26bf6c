// The diff's renderings keep site text (robots.txt lines) inert: no control characters reach a
// terminal or CI log, a Markdown fence cannot be closed from inside, JUnit is well-formed XML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDiffJunit, renderDiffMarkdown, renderDiffText } from '../../src/cli/diff.ts';
import { diffReports, type DiffSideInput } from '../../src/changes/diff.ts';

const HOSTILE = 'Disallow: /\u001b[2J\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007\n```\n# <b>injected</b> & "quoted"\n````\n';

function side(scanId: string, body: string, at: string): DiffSideInput {
  return {
    report: { scanId, domain: 'shop.example', scannedAt: at, headline: 'open', score: { value: 80, rubricVersion: 'rubric-v1.1' }, confidence: 'high', checks: [], matrix: [] },
    reportUrl: `https://ar.example/r/${scanId}`, usable: ['networkA', 'networkB'], robotsTxt: { state: 'present', body },
  };
}
const d = diffReports(side('11111111-1111-4111-8111-111111111111', 'User-agent: *\nAllow: /\n', '2026-11-01T00:00:00Z'), side('22222222-2222-4222-8222-222222222222', `User-agent: *\nAllow: /\n${HOSTILE}`, '2026-11-02T00:00:00Z'), 'https://ar.example/r/1/diff/2');

test('text: the robots.txt lines arrive without escape sequences or bells', () => {
  const out = renderDiffText(d);
  assert.match(out, /\+Disallow: \/click\n/, "escape sequences are removed whole");
  assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f]/);
});

test('markdown: the diff fence is longer than any backtick run inside it', () => {
  const out = renderDiffMarkdown(d);
  assert.match(out, /\n`````diff\n/);
  const fenced = out.slice(out.indexOf('`````diff'));
  assert.ok(fenced.includes('\n+````\n`````\n'), 'the four-backtick line inside stays inside the five-backtick fence');
  assert.doesNotMatch(out, /\u001b/);
});

test('junit: no change is a failure here, and the document is escaped', () => {
  const out = renderDiffJunit(d);
  assert.match(out, /tests="0" failures="0"/);
  assert.doesNotMatch(out, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
});
