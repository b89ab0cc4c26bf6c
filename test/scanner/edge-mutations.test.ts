// The mutation table: every denial of the edge corpus in every variant a browser renders the
// same (test/scanner/edge-mutations.ts). Each variant must keep its outcome and its vendor, and
// none may be read as `pass`; every ordinary page must stay `pass` in every variant. The
// renderer is checked against the mutations first: each variant must render to exactly the
// text and markup of its original, so a mutation that changed what a reader sees (and would make
// the table test the wrong thing) fails here instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderBody } from '../../src/scanner/rendered.ts';
import { FINGERPRINTS_VERSION } from '../../src/scanner/versions.ts';
import { classifySample, corpusReport, loadSamples, variantsOf } from './edge-corpus.ts';
import { MUTATIONS } from './edge-mutations.ts';

const samples = loadSamples();
const variants = variantsOf(samples);
const ordinary = variants.filter(({ s }) => s.expected.outcome === 'pass');
const changed = (v: (typeof variants)[number]) => v.body !== v.s.body;

test(`mutations: ${MUTATIONS.length} kinds (${MUTATIONS.map((m) => m.name).join(', ')}), each changes some page of the corpus`, () => {
  for (const m of MUTATIONS) {
    const of = variants.filter((v) => v.m === m);
    assert.ok(of.filter(changed).length >= of.length / 2, `${m.name} changed ${of.filter(changed).length} of ${of.length} pages`);
  }
});

test('mutations: every variant of every sample renders to the text and markup of its original', () => {
  const differs = variants.filter(changed).filter(({ s, body }) => {
    const a = renderBody(s.body);
    const b = renderBody(body);
    return a.text !== b.text || a.markup !== b.markup;
  });
  assert.deepEqual(differs.map(({ s, m }) => `${s.id}: ${m.name}`), []);
});

const { mutated: results, rep } = corpusReport(samples);
const all = rep.mutations.at(-1)!;
const kept = (x: (typeof results)[number]) => x.r.outcome === x.s.expected.outcome && (!x.s.expected.vendor || x.r.vendors.includes(x.s.expected.vendor));

test(`mutations (${FINGERPRINTS_VERSION}): ${all.variants} variants of ${all.denials} denials, ${all.kept} keep outcome and vendor, ${all.asPass} read as pass (fingerprints-v1.1, on bytes: ${rep.v11MutationsAsPass} as pass); ${rep.mutations.slice(0, -1).map((f) => `${f.fidelity} ${f.kept}/${f.variants}`).join(', ')}`, () => {
  assert.deepEqual(results.filter(({ r }) => r.outcome === 'pass').map(({ s, m, r }) => `${s.id} (${m.name}): pass, markers ${r.markers.join('; ')}`), []);
  assert.deepEqual(results.filter((x) => !kept(x)).map(({ s, m, r }) => `${s.id} (${m.name}): ${r.outcome} by ${r.vendors.join(', ') || 'nobody'}, expected ${s.expected.outcome} by ${s.expected.vendor ?? 'nobody'}`), []);
  assert.ok(rep.v11MutationsAsPass > 0, 'matching on bytes misses some variants; this table would not show it if it did not');
});

test('mutations: every variant of every ordinary page stays pass', () => {
  const wrong = ordinary.map((v) => ({ ...v, r: classifySample({ ...v.s, body: v.body }) })).filter(({ r }) => r.outcome !== 'pass');
  assert.deepEqual(wrong.map(({ s, m, r }) => `${s.id} (${m.name}): ${r.outcome} (${r.markers.join('; ')})`), []);
});
