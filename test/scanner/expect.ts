// Asserting a scenario's expectation against an engine report (shared by the scenario and determinism tests).
import assert from 'node:assert/strict';
import type { EngineReport } from '../../src/scanner/types.ts';
import type { Expectation, IntentExpectation } from '../world/site.ts';
import { assertParties } from './expect-parties.ts';

export function assertExpectation(report: EngineReport, want: Expectation, label: string): void {
  const row = (token: string) => {
    const r = report.matrix.find((m) => m.ua === token);
    assert.ok(r, `${label}: no matrix row for ${token}`);
    return r;
  };
  assert.equal(report.headline, want.headline, `${label}: headline (reasons: ${report.reasons.join(' | ')})`);
  if (want.vantagesConfirmed !== undefined) assert.equal(report.vantagesConfirmed, want.vantagesConfirmed, `${label}: vantagesConfirmed`);
  if (want.confidence) assert.equal(report.confidence, want.confidence, `${label}: confidence (${report.confidenceNote})`);
  if (want.profile !== undefined) assert.equal(report.profile, want.profile, `${label}: profile`);
  for (const [token, verdict] of Object.entries(want.verdicts ?? {})) assert.equal(row(token).verdict, verdict, `${label}: verdict of ${token} (${row(token).notes.join(' | ')})`);
  for (const [token, patterns] of Object.entries(want.notes ?? {})) {
    for (const re of patterns) assert.ok(row(token).notes.some((n) => re.test(n)), `${label}: a note of ${token} matches ${re} (notes: ${row(token).notes.join(' | ')})`);
  }
  for (const [token, robots] of Object.entries(want.robotsSays ?? {})) assert.equal(row(token).robotsSays, robots, `${label}: robotsSays of ${token}`);
  for (const [token, [a, b]] of Object.entries(want.edge ?? {})) {
    if (token === 'control') continue; // controls are asserted on the evidence by the caller
    assert.deepEqual(row(token).edgeDoes, { networkA: a, networkB: b }, `${label}: edgeDoes of ${token}`);
  }
  for (const [token, vendors] of Object.entries(want.vendors ?? {})) {
    const got = row(token).attributedVendors;
    if (vendors.length === 0) assert.deepEqual(got, [], `${label}: no vendor for ${token}`);
    for (const v of vendors) assert.ok(got.includes(v), `${label}: ${token} attributed ${JSON.stringify(got)}, want ${v}`);
  }
  for (const [id, status] of Object.entries(want.checks ?? {})) {
    const c = report.checks.find((x) => x.id === id);
    assert.equal(c?.status, status, `${label}: check ${id} (${c?.detail})`);
  }
  for (const [id, pattern] of Object.entries(want.details ?? {})) assert.match(report.checks.find((x) => x.id === id)?.detail ?? '', pattern, `${label}: detail of ${id}`);
  if (want.probeMethod) assert.match(report.probeMethod, want.probeMethod, `${label}: probeMethod`);
  for (const [id, pattern] of Object.entries(want.previewDetails ?? {})) assert.match(report.preview?.checks.find((x) => x.id === id)?.detail ?? '', pattern, `${label}: preview detail of ${id}`);
  for (const [id, [status, generation]] of Object.entries(want.previewChecks ?? {})) {
    const c = report.preview?.checks.find((x) => x.id === id);
    assert.equal(c?.status, status, `${label}: preview check ${id} (${c?.detail})`);
    assert.equal(c?.generation, generation, `${label}: preview check ${id} matched generation`);
  }
  if (want.scoreNull !== undefined) assert.equal(report.score.value === null, want.scoreNull, `${label}: score null`);
  for (const re of want.reasons ?? []) assert.ok(report.reasons.some((r) => re.test(r)), `${label}: a reason matches ${re} (reasons: ${report.reasons.join(' | ')})`);
  for (const [token, c] of Object.entries(want.content ?? {})) {
    const got = row(token).content;
    assert.deepEqual(got && [got.networkA, got.networkB], [...c.networks], `${label}: content of ${token} (${row(token).notes.join(' | ')})`);
    if (c.differs) assert.deepEqual(got?.differs ?? [], [...c.differs], `${label}: what differs for ${token}`);
    if (c.agentServing) assert.deepEqual([...new Set((got?.agentServing ?? []).map((a) => a.header))], [...c.agentServing], `${label}: agent-serving headers for ${token}`);
  }
  if (want.robotsTxt) assertRobotsTxt(report, want.robotsTxt, label);
  if (want.intent !== undefined) assertIntent(report, want.intent, label);
  assertParties(report, want, label);
  if (want.robotsPatch !== undefined) {
    const p = report.robotsPatch;
    assert.deepEqual(p ? { agents: p.agents.map((a) => a.ua), managed: p.managed?.agents ?? [] } : null, want.robotsPatch === null ? null : { agents: want.robotsPatch.agents, managed: want.robotsPatch.managed ?? [] }, `${label}: robotsPatch (${p?.reason})`);
  }
}

function assertIntent(report: EngineReport, want: IntentExpectation | null, label: string): void {
  if (want === null) return assert.equal(report.intent, undefined, `${label}: no report.intent`);
  const got = report.intent;
  assert.ok(got, `${label}: report.intent`);
  assert.deepEqual(got.asIntended, { met: want.met, decided: want.decided }, `${label}: intent.asIntended (${JSON.stringify(got.roles)})`);
  assert.deepEqual(got.roles.map((r) => r.role), Object.keys(want.roles), `${label}: intent roles, in order`);
  for (const [role, w] of Object.entries(want.roles)) {
    const r: NonNullable<EngineReport['intent']>['roles'][number] = got.roles.find((x) => x.role === role)!;
    const where = `${label}: intent ${role} (${JSON.stringify(r)})`;
    assert.equal(r.asIntended, w.asIntended, `${where}: asIntended`);
    if (w.robotsSays) assert.equal(r.robotsSays, w.robotsSays, `${where}: robotsSays`);
    if (w.edgeDoes) assert.equal(r.edgeDoes, w.edgeDoes, `${where}: edgeDoes`);
    if (w.missed) assert.deepEqual(r.missed, w.missed, `${where}: missed`);
    if (w.fix === null) assert.equal(r.fix, null, `${where}: no fix`);
    else if (w.fix) {
      assert.ok(r.fix, `${where}: a fix`);
      assert.match(r.fix.text, w.fix.text, `${where}: fix text`);
      assert.equal(r.fix.platform, w.fix.platform, `${where}: fix platform`);
      assert.equal(r.fix.robotsTxt, w.fix.robotsTxt, `${where}: fix robots.txt lines`);
      if (w.fix.docUrl !== undefined) assert.equal(r.fix.docUrl, w.fix.docUrl, `${where}: fix docUrl`);
    }
  }
}

function assertRobotsTxt(report: EngineReport, want: NonNullable<Expectation['robotsTxt']>, label: string): void {
  const r = report.robotsTxt;
  assert.ok(r, `${label}: report.robotsTxt`);
  assert.equal(r.variesByRequester, want.variesByRequester, `${label}: robotsTxt.variesByRequester`);
  assert.equal(r.copies.length, want.copies, `${label}: robotsTxt copies (${JSON.stringify(r.copies.map((c) => c.requesters))})`);
  const browser = r.copies.find((c) => c.requesters.includes('browser'));
  if (want.ownCopy) assert.deepEqual(r.copies.filter((c) => c !== browser).flatMap((c) => c.requesters).sort(), [...want.ownCopy].sort(), `${label}: agents served a copy of their own`);
  if (want.ownCopySecond) {
    const second = r.copies.find((c) => c.secondNetwork?.includes('browser'));
    assert.deepEqual(r.copies.filter((c) => c !== second).flatMap((c) => c.secondNetwork ?? []).sort(), [...want.ownCopySecond].sort(), `${label}: agents served a copy of their own on the second network`);
  }
  if (want.managed !== undefined) assert.deepEqual(r.managed ? { vendor: r.managed.vendor, agents: r.managed.agents } : null, want.managed, `${label}: robotsTxt.managed`);
}
