// The edge corpus (test/fixtures/edges/) runs through classification and attribution with the
// current fingerprint set. Each sample carries one fidelity class (test/scanner/edge-corpus.ts):
// captured responses and bodies are real; the rest are pages built around published markers, or
// ordinary pages we wrote. The summary line gives the figures per class, and /methodology.md and
// bench/results.md must say the same (`npm run corpus:figures` writes them). The promise: no
// denial is ever `pass`, no ordinary page is a denial, the outcome is right for at least 98 %, the
// vendor is named for at least 95 % of denials of known vendors, and a marker two vendors share
// never names the wrong one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { classificationKey, classifyOnce, classifyResponse, DENIALS, type ClassifyMemo } from '../../src/scanner/classify.ts';
import { FINGERPRINT_SETS } from '../../src/scanner/fingerprints.ts';
import { benchSection, BENCH_RESULTS, CAPTURED, classifySample, corpusReport, FIDELITY, loadSamples, METHODOLOGY_PART, methodologyText, summaryLine, withBenchSection } from './edge-corpus.ts';

const samples = loadSamples();
const { rows: results, rep } = corpusReport(samples);
const denials = results.filter(({ s }) => DENIALS.has(s.expected.outcome));
const ordinary = results.filter(({ s }) => s.expected.outcome === 'pass');
const right = results.filter(({ s, r }) => r.outcome === s.expected.outcome);
const known = denials.filter(({ s }) => s.expected.vendor);
const named = known.filter(({ s, r }) => r.vendors.includes(s.expected.vendor!));
const pct = (n: number, d: number) => ((n / d) * 100).toFixed(1);
const vendors = new Set(samples.flatMap((s) => (s.vendor ? [s.vendor] : [])));

const captured = samples.filter((s) => CAPTURED.has(s.fidelity));
const capturedVendors = new Set(captured.flatMap((s) => (s.vendor ? [s.vendor] : [])));

test(summaryLine(rep.figures), () => {
  // Real responses, not pages that agree with the classifier by construction: at least 50 over 15 vendors.
  assert.ok(captured.length >= 50, `${captured.length} captured samples`);
  assert.ok(capturedVendors.size >= 15, `${capturedVendors.size} vendors among the captured samples: ${[...capturedVendors].join(', ')}`);
  assert.ok(samples.length >= 150, `${samples.length} samples`);
  assert.ok(vendors.size >= 25, `${vendors.size} vendors`);
  assert.ok(denials.filter(({ s }) => s.status === 200).length >= 40);
  assert.ok(ordinary.length >= 40);
});

test('edge corpus: every sample has exactly one fidelity class and names its public source', () => {
  const ids = new Set<string>();
  for (const s of samples) {
    assert.ok(!ids.has(s.id), `${s.id} appears once`);
    ids.add(s.id);
    assert.ok((FIDELITY as readonly string[]).includes(s.fidelity), `${s.id}: fidelity ${s.fidelity}`);
    assert.match(s.source.url ?? '', /^https:\/\//, `${s.id} names a public source by its URL`);
    if (s.source.repository) assert.match(s.source.commit ?? '', /^[0-9a-f]{40}$/, `${s.id}: a repository file is named at its commit`);
    // A body without its response says where its status and headers come from.
    if (s.fidelity === 'captured-body') assert.ok(s.statusNote, `${s.id}: a captured body says where its status and headers come from`);
    // Only captured samples are called real.
    if (!CAPTURED.has(s.fidelity)) assert.doesNotMatch(`${s.note} ${s.statusNote ?? ''}`, /\breal\b/i, `${s.id} is not captured and is not called real`);
  }
});

test('/methodology.md and bench/results.md give the figures this table measures (npm run corpus:figures)', () => {
  assert.equal(fs.readFileSync(METHODOLOGY_PART, 'utf8'), methodologyText(rep), 'src/docs/text/edge-corpus.md is stale: run npm run corpus:figures');
  const bench = fs.readFileSync(BENCH_RESULTS, 'utf8');
  assert.equal(withBenchSection(bench, benchSection(rep)), bench, 'bench/results.md is stale: run npm run corpus:figures');
  const methodology = fs.readFileSync(new URL('../../src/docs/text/methodology.md', import.meta.url), 'utf8');
  assert.ok(methodology.includes('{{EDGE_CORPUS}}'), 'methodology.md includes the corpus figures');
});

test('edge corpus: no denial is ever classified pass', () => {
  assert.deepEqual(denials.filter(({ r }) => r.outcome === 'pass').map(({ s }) => s.id), []);
});

test('edge corpus: no ordinary page is classified as a denial', () => {
  assert.deepEqual(ordinary.filter(({ r }) => DENIALS.has(r.outcome)).map(({ s, r }) => `${s.id}: ${r.outcome} (${r.markers.join('; ')})`), []);
});

test(`edge corpus: the outcome is right for ${right.length} of ${samples.length} samples (${pct(right.length, samples.length)} %, at least 98 %)`, () => {
  const wrong = results.filter(({ s, r }) => r.outcome !== s.expected.outcome).map(({ s, r }) => `${s.id}: ${r.outcome}, expected ${s.expected.outcome}`);
  assert.ok(right.length / samples.length >= 0.98, wrong.join('\n'));
});

test(`edge corpus: the vendor is named for ${named.length} of ${known.length} denials of known vendors (${pct(named.length, known.length)} %, at least 95 %)`, () => {
  const missed = known.filter((x) => !named.includes(x)).map(({ s, r }) => `${s.id}: named ${r.vendors.join(', ') || 'nobody'}`);
  assert.ok(named.length / known.length >= 0.95, missed.join('\n'));
});

test('edge corpus: a denial is never attributed to a vendor whose markers it only shares', () => {
  const wrong = denials.filter(({ s, r }) => r.mitigating.some((v) => v !== s.expected.vendor)).map(({ s, r }) => `${s.id}: ${r.mitigating.join(', ')} (expected ${s.expected.vendor ?? 'none'})`);
  assert.deepEqual(wrong, []);
});

// What v1.1 fixed, measured on the same corpus: the figures go to /methodology.md.
const old = samples.map((s) => ({ s, r: classifySample(s, FINGERPRINT_SETS['fingerprints-v1.0']!, null) }));
test(`edge corpus under fingerprints-v1.0 for comparison: ${rep.v10.right} of ${samples.length} right (${pct(rep.v10.right, samples.length)} %), ${rep.v10.denialsAsPass} denials read as pass`, () => {
  assert.ok(old.some(({ s, r }) => s.id.startsWith('f5-') && r.outcome === 'pass'), 'v1.0 read the F5 Request Rejected page as pass, which v1.1 fixes');
});

test('edge corpus: a scan classifies each distinct answer once, and the memo gives exactly what classifying afresh gives', () => {
  const memo: ClassifyMemo = new Map();
  for (const s of samples) {
    const input = { ok: true as const, status: s.status, headers: s.headers, setCookieNames: [], body: s.body, bodyBytes: Buffer.byteLength(s.body), redirects: [] };
    const sha = createHash('sha256').update(s.body).digest('hex');
    const fresh = classifyResponse(input, s.isHome !== false);
    assert.deepEqual(classifyOnce(memo, input, s.isHome !== false, sha), fresh, `${s.id}: first`);
    assert.deepEqual(classifyOnce(memo, input, s.isHome !== false, sha), fresh, `${s.id}: from the memo`);
    // A header no marker reads does not split the key; one a marker reads does.
    assert.equal(classificationKey({ ...input, headers: { ...s.headers, date: 'Mon, 23 Nov 2026 08:00:00 GMT' } }, true, sha), classificationKey(input, true, sha));
    assert.notEqual(classificationKey({ ...input, headers: { ...s.headers, 'cf-mitigated': 'challenge' } }, true, sha), classificationKey({ ...input, headers: { ...s.headers, 'cf-mitigated': 'x' } }, true, sha));
  }
  assert.ok(memo.size <= samples.length);
});

test('edge corpus: a marker header sent empty and one not sent are different answers to the memo', () => {
  // `cf-ray` with any value, even empty, marks Cloudflare's presence; without it the answer is a plain origin's.
  const input = { ok: true as const, status: 200, headers: { 'content-type': 'text/html' }, setCookieNames: [], body: '<p>hi</p>', bodyBytes: 9, redirects: [] };
  const sent = { ...input, headers: { ...input.headers, 'cf-ray': '' } };
  assert.notEqual(classificationKey(sent, true, 'x'), classificationKey(input, true, 'x'));
  const memo: ClassifyMemo = new Map();
  assert.deepEqual(classifyOnce(memo, sent, true, 'x'), classifyResponse(sent, true));
  assert.deepEqual(classifyOnce(memo, input, true, 'x'), classifyResponse(input, true));
  assert.deepEqual(classifyResponse(sent, true).vendors, ['cloudflare']);
});
