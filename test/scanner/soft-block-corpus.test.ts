// Soft blocks over the edge corpus (issue 36 item 3). The corpus table (edge-corpus.test.ts) judges
// every sample as an agent's home-page answer while the browser got a real page (a captured one,
// REAL_CONTROL_ID), so a 200 gate page counts as a denial there and "no ordinary page is a denial"
// covers soft blocks too. This file adds what that table cannot say: a page the browser got as well
// is never a soft block, the gate pages are captured ones, and every language of the gate wording
// has a page in the corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DENIALS } from '../../src/scanner/classify.ts';
import { GATE_WORDING } from '../../src/scanner/gate-wording.ts';
import { CAPTURED, classifySample, loadSamples, REAL_CONTROL_ID } from './edge-corpus.ts';

const samples = loadSamples();

test('the same page for the browser and the agent is never a soft block: every sample judged beside itself keeps its outcome alone', () => {
  const moved = samples.map((s) => ({ s, alone: classifySample(s, undefined, null), same: classifySample(s, undefined, s.body) }))
    .filter(({ alone, same }) => alone.outcome !== same.outcome).map(({ s, alone, same }) => `${s.id}: ${alone.outcome} alone, ${same.outcome} beside itself`);
  assert.deepEqual(moved, []);
});

test('soft blocks in the corpus: the 200 pages read as pass alone and as a denial beside the real page include captured ones, none of them an ordinary page', () => {
  const soft = samples.filter((s) => classifySample(s, undefined, null).outcome === 'pass' && DENIALS.has(classifySample(s).outcome));
  assert.ok(soft.length >= 3, soft.map((s) => s.id).join(', '));
  assert.ok(soft.some((s) => CAPTURED.has(s.fidelity)), 'at least one soft block of the corpus is a captured page');
  for (const s of soft) {
    assert.equal(s.status, 200, `${s.id} is a 200`);
    assert.ok(DENIALS.has(s.expected.outcome), `${s.id} is expected to be a denial`);
    assert.equal(s.expected.vendor, null, `${s.id}: a soft block names no vendor`);
  }
  assert.ok(!samples.find((s) => s.id === REAL_CONTROL_ID) || classifySample(samples.find((s) => s.id === REAL_CONTROL_ID)!).outcome === 'pass', 'the real control page beside itself is a pass');
});

test('every language of the gate wording has a page in the corpus (denial wording "in a language of the corpus")', () => {
  const langOf = (body: string, lang?: string) => (lang ?? /<html[^>]*\blang=["']?([a-zA-Z]+)/i.exec(body)?.[1] ?? '').toLowerCase();
  const langs = new Set(samples.map((s) => langOf(s.body, s.lang)).filter(Boolean));
  for (const lang of Object.keys(GATE_WORDING)) assert.ok(langs.has(lang), `the corpus holds a page in ${lang} (${[...langs].join(', ')})`);
});
