// Grading by intent never moves the score, the checks, the headline or the matrix: the same site
// (test/world/scenarios/intents.ts) scanned without an intent and with intents that match it and
// that do not gives the same report apart from `intent` (and the evidence ids stay the same).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import type { ScanIntent } from '../../src/scanner/intent-request.ts';
import type { EngineReport } from '../../src/scanner/types.ts';

let world: World;
before(async () => { world = await startWorld(); });
after(async () => { await world.stop(); });

const FIXED = () => new Date('2026-11-22T00:00:00Z');

const INTENTS: Array<ScanIntent | undefined> = [
  undefined,
  { training: 'block', search: 'allow', 'user-fetch': 'allow' },
  { training: 'allow', archive: 'block' },
  { training: 'charge', search: 'block', 'user-fetch': 'charge', archive: 'allow' },
];

/** Everything but the intent (and the probe timings, which are measured anew on every scan). */
function judged(r: EngineReport) {
  const { intent: _intent, ...rest } = r;
  return rest;
}

describe('grading by intent leaves the score alone', () => {
  test('the same site with four intents: score, checks, headline, reasons, matrix, preview and fixes are identical', async () => {
    const scanner = createScanner({ networks: world.egress(), deadlineMs: 15_000, probeTimeoutMs: 5_000, now: FIXED });
    const reports: EngineReport[] = [];
    // One at a time: scans of one site share its politeness bound, and the order of answers must not matter anyway.
    for (const intent of INTENTS) reports.push((await scanner.scan(world.domain('intent-as-asked'), intent ? { intent } : {})).report);
    const [plain, ...withIntent] = reports;
    assert.equal(plain!.intent, undefined, 'no intent asked, no intent field');
    for (const [i, r] of withIntent.entries()) {
      assert.ok(r.intent, `intent ${i + 1} is judged`);
      assert.deepEqual(judged(r), judged(plain!), `intent ${JSON.stringify(INTENTS[i + 1])}: the report apart from intent is the one without`);
    }
    // The intents really were judged differently (archive=allow is what the site does; the rest is not), so the equality above is not a report that ignored them.
    assert.deepEqual(withIntent.map((r) => r.intent!.asIntended), [{ met: 3, decided: 3 }, { met: 0, decided: 2 }, { met: 1, decided: 4 }]);
  });
});
