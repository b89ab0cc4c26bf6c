// Asserting who refused each agent, what each 402 offered and the platform fixes (issue 36 items 4, 5) against an engine report.
import assert from 'node:assert/strict';
import type { EngineReport } from '../../src/scanner/types.ts';

interface PartyWant { party: 'origin' | 'edge' | 'platform' | 'network'; vendor?: string; evidence?: RegExp; asksToSign?: RegExp | null }
interface OfferWant { scheme: string; price?: string; currency?: string; payee?: string }

export interface PartiesExpectation {
  /** token -> [networkA, networkB]; null = no refusedBy entry on that network. */
  refusedBy?: Record<string, readonly [PartyWant | null, PartyWant | null]>;
  /** token -> [networkA, networkB] offers; null = none. */
  offers?: Record<string, readonly [OfferWant | null, OfferWant | null]>;
  platformFixes?: ReadonlyArray<{ platform: string; text: RegExp }>;
}

export function assertParties(report: EngineReport, want: PartiesExpectation, label: string): void {
  const row = (token: string) => {
    const r = report.matrix.find((m) => m.ua === token);
    assert.ok(r, `${label}: no matrix row for ${token}`);
    return r;
  };
  for (const [token, pair] of Object.entries(want.refusedBy ?? {})) {
    const got = row(token).refusedBy;
    (['networkA', 'networkB'] as const).forEach((n, i) => {
      const w = pair[i];
      const g = got?.[n];
      if (w === null || w === undefined) return assert.equal(g, undefined, `${label}: ${token} has no refusedBy on ${n} (${JSON.stringify(g)})`);
      assert.ok(g, `${label}: ${token} refusedBy.${n}`);
      assert.equal(g.party, w.party, `${label}: ${token} refusedBy.${n}.party (${g.evidence})`);
      if (w.vendor !== undefined) assert.equal(g.vendor, w.vendor, `${label}: ${token} refusedBy.${n}.vendor`);
      if (w.evidence) assert.match(g.evidence, w.evidence, `${label}: ${token} refusedBy.${n}.evidence`);
      if (w.asksToSign === null) assert.equal(g.asksToSign, undefined, `${label}: ${token} refusedBy.${n}.asksToSign`);
      else if (w.asksToSign) assert.match(g.asksToSign ?? '', w.asksToSign, `${label}: ${token} refusedBy.${n}.asksToSign`);
    });
  }
  for (const [token, pair] of Object.entries(want.offers ?? {})) {
    const got = row(token).offers;
    (['networkA', 'networkB'] as const).forEach((n, i) => {
      const w = pair[i];
      if (!w) return assert.equal(got?.[n], undefined, `${label}: ${token} has no offer on ${n}`);
      const g = got?.[n];
      assert.ok(g, `${label}: ${token} offers.${n}`);
      for (const k of ['scheme', 'price', 'currency', 'payee'] as const) if (w[k] !== undefined) assert.equal(g[k], w[k], `${label}: ${token} offers.${n}.${k}`);
    });
  }
  for (const f of want.platformFixes ?? []) {
    assert.ok((report.platformFixes ?? []).some((x) => x.platform === f.platform && f.text.test(x.text)), `${label}: a platform fix for ${f.platform} matches ${f.text} (${JSON.stringify(report.platformFixes)})`);
  }
}
