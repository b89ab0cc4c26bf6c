// A probable cause for every denial pattern, table-tested against world scenarios built for it:
// reasons and matrix notes say what a pattern is "consistent with", never what anyone intended.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createScanner } from '../../src/scanner/engine.ts';
import { startWorld, type World } from '../world/index.ts';

const TABLE: Array<[scenario: string, expected: RegExp | null, mustNot: RegExp | null, deniedAgent: string | null]> = [
  ['cf-role-default', /consistent with Cloudflare's role-based default for AI crawlers/, null, 'GPTBot'],
  ['akamai-role-rule', /consistent with a rule by crawler role: training crawlers, agents fetching for a user and archivers denied, search crawlers allowed/, /Cloudflare/, 'GPTBot'],
  ['cf-looks-like-default', /consistent with a rule by crawler role/, /Cloudflare's role-based default/, 'GPTBot'],
  ['one-agent-rule', /consistent with a rule on the one user-agent GPTBot/, /crawler role/, 'GPTBot'],
  ['cf-rate-limit', /consistent with a rate limit on requests from cloud servers/, /crawler role|one user-agent/, 'PerplexityBot'],
  ['netb-reputation', /browser control on networkB was met with a block as well, consistent with a block on that network's addresses/, null, null],
  ['open-basic', null, /consistent with/, null],
];

describe('probable causes', () => {
  let world: World;
  before(async () => { world = await startWorld(); });
  after(async () => { await world.stop(); });

  for (const [name, expected, mustNot, agent] of TABLE) {
    test(`probable cause for ${name}: ${expected ? expected.source.slice(0, 60) : 'none'}`, async () => {
      const scanner = createScanner({ networks: world.egress({}), deadlineMs: 15_000, probeTimeoutMs: 5_000, now: () => new Date('2026-11-22T00:00:00Z') });
      const { report } = await scanner.scan(world.domain(name));
      const text = report.reasons.join('\n');
      if (expected) assert.match(text, expected);
      if (mustNot) assert.doesNotMatch(text, mustNot);
      for (const r of report.reasons) assert.doesNotMatch(r, /\b(wants|intends|decided to|chose to)\b/i, 'never states intent');
      if (agent) {
        const notes = report.matrix.find((m) => m.ua === agent)!.notes.join('\n');
        assert.match(notes, /probable cause: consistent with/);
      }
    });
  }
});
