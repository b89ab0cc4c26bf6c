// The property every proposed robots.txt patch must have, checked from the outside: the patch is
// applied as a unified diff (jsdiff's applyPatch) to the robots.txt the scan read, and the result,
// read by the RFC 9309 matcher, says for every agent whose edge answer was decided what the edge
// did (allowed where it let the agent in, disallowed where it turned it away).
import assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import type { ScannedFile } from '../../src/scanner/engine.ts';
import type { EngineReport, MatrixEntry } from '../../src/scanner/types.ts';

export function edgeOf(m: MatrixEntry): 'allows' | 'denies' | undefined {
  if (m.verdict === 'pass' || m.verdict === 'reduced-content') return 'allows';
  if (m.verdict === 'denied' || m.verdict === 'blocked-consistent') return 'denies';
  return undefined;
}

const scoredAgent = (ua: string, roster: string) => {
  const a = getRoster(roster).find((x) => x.token === ua);
  return a && !a.tokenOnly && !a.contextOnly;
};

/** The patched robots.txt, or null when no patch was offered. Throws when the patch does not apply. */
export function patchedRobots(report: EngineReport, files: readonly ScannedFile[]): string | null {
  if (!report.robotsPatch) return null;
  const served = files.find((f) => f.path === '/robots.txt');
  const before = served?.state === 'present' ? (served.body ?? '').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : '';
  const text = before === '' || before.endsWith('\n') ? before : `${before}\n`;
  // No line of the owner's own needs to change when every disagreement comes from a managed block.
  if (report.robotsPatch.unifiedDiff === '') return text;
  const after = applyPatch(text, report.robotsPatch.unifiedDiff);
  assert.notEqual(after, false, `${report.domain}: the patch applies to the robots.txt that was read`);
  return after as string;
}

/** Agents served a readable robots.txt other than the browser's: the browser's file is not theirs to patch. */
function ownCopies(report: EngineReport): Set<string> {
  const copies = report.robotsTxt?.copies ?? [];
  const browser = copies.find((c) => c.requesters.includes('browser'));
  return new Set(copies.filter((c) => c !== browser && c.state !== 'unknown').flatMap((c) => c.requesters));
}

export function assertRobotsPatch(report: EngineReport, files: readonly ScannedFile[], name: string): void {
  const roster = report.versions.roster;
  const own = ownCopies(report);
  const decided = report.matrix.filter((m) => scoredAgent(m.ua, roster) && edgeOf(m) !== undefined && !own.has(m.ua));
  const disagree = decided.filter((m) => (edgeOf(m) === 'allows' ? m.robotsSays === 'blocked' : m.robotsSays === 'allowed' || m.robotsSays === 'partial'));
  const deniedButAllowed = disagree.filter((m) => edgeOf(m) === 'denies');
  const readable = files.find((f) => f.path === '/robots.txt')?.state !== 'unknown';
  const due = readable && disagree.length > 0 && (report.headline === 'contradictory' || deniedButAllowed.length > 0);
  assert.equal(report.robotsPatch !== undefined, due, `${name}: a patch is offered exactly when robots.txt and the edge disagree (${disagree.map((m) => m.ua).join(', ') || 'none'})`);
  const after = patchedRobots(report, files);
  if (after === null) return;
  const file = readRobots({ ok: true, status: 200, contentType: 'text/plain', body: after, edgeOutcome: 'pass' });
  const byToken = new Map(getRoster(roster).map((a) => [a.token, a]));
  // A managed block's lines are never edited, and the agents they decide are left to the vendor's setting.
  const managed = report.robotsTxt?.managed;
  if (managed?.firstLine && managed.lastLine) {
    const range = (t: string) => t.split('\n').slice(managed.firstLine! - 1, managed.lastLine);
    assert.deepEqual(range(after), range(files.find((f) => f.path === '/robots.txt')?.body ?? ''), `${name}: the patch leaves the managed lines as served`);
  }
  const leftToSetting = new Set(report.robotsPatch!.managed?.agents ?? []);
  for (const m of decided) {
    if (leftToSetting.has(m.ua)) continue;
    const says = robotsSays(file, byToken.get(m.ua)!).says;
    if (edgeOf(m) === 'allows') assert.ok(says === 'allowed' || says === 'partial', `${name}: after the patch robots.txt lets ${m.ua} in, as the edge does (says ${says})`);
    else assert.equal(says, 'blocked', `${name}: after the patch robots.txt disallows ${m.ua}, as the edge does`);
  }
  for (const a of report.robotsPatch!.agents) assert.equal(a.after, robotsSays(file, byToken.get(a.ua)!).says, `${name}: the patch's own account of ${a.ua}`);
}
