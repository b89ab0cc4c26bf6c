// The corpus of real edge responses (test/fixtures/edges/, written by
// scripts/fixtures/write-edge-corpus.py from public captures and wafw00f's and is-antibot's
// markers, each sample naming its source and fidelity) runs through classification and
// attribution with the current fingerprint set. The promise: no denial is ever `pass`, no
// ordinary page is a denial, the outcome is right for at least 98 %, the vendor is named for at
// least 95 % of denials of known vendors, and a marker two vendors share never names the wrong one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { classificationKey, classifyOnce, classifyResponse, DENIALS, type ClassifyMemo, type EdgeOutcome } from '../../src/scanner/classify.ts';
import { FINGERPRINT_SETS, matchFingerprints } from '../../src/scanner/fingerprints.ts';
import { FINGERPRINTS_VERSION } from '../../src/scanner/versions.ts';

interface Sample {
  id: string; vendor: string | null; status: number; headers: Record<string, string>; body: string; isHome?: boolean;
  source: Record<string, string>; fidelity: string; expected: { outcome: EdgeOutcome; vendor: string | null };
}

const dir = new URL('../fixtures/edges/', import.meta.url);
const samples: Sample[] = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(fs.readFileSync(new URL(f, dir), 'utf8')) as Sample);

function run(s: Sample, set = FINGERPRINT_SETS[FINGERPRINTS_VERSION]!) {
  const setCookieNames = (s.headers['set-cookie'] ?? '').split(/,(?=\s*[^;,=\s]+=)/).map((c) => c.split('=')[0]!.trim()).filter(Boolean);
  const view = { status: s.status, headers: s.headers, setCookieNames, body: s.body, bodyBytes: Buffer.byteLength(s.body) };
  const classified = classifyResponse({ ok: true, ...view, redirects: [] }, s.isHome !== false, set);
  const fp = matchFingerprints(view, set);
  // Vendors whose mitigation markers fired (presence alone names a CDN, not the one who denied).
  const mitigating = [...new Set([...fp.challenge, ...fp.deny, ...fp.rateLimit].map((h) => h.vendor))];
  return { ...classified, mitigating };
}

const results = samples.map((s) => ({ s, r: run(s) }));
const denials = results.filter(({ s }) => DENIALS.has(s.expected.outcome));
const ordinary = results.filter(({ s }) => s.expected.outcome === 'pass');
const right = results.filter(({ s, r }) => r.outcome === s.expected.outcome);
const known = denials.filter(({ s }) => s.expected.vendor);
const named = known.filter(({ s, r }) => r.vendors.includes(s.expected.vendor!));
const pct = (n: number, d: number) => ((n / d) * 100).toFixed(1);
const vendors = new Set(samples.flatMap((s) => (s.vendor ? [s.vendor] : [])));

test(`edge corpus (${FINGERPRINTS_VERSION}): ${samples.length} samples, ${vendors.size} vendors, ${denials.filter(({ s }) => s.status === 200).length} status-200 denials, ${ordinary.length} ordinary pages`, () => {
  assert.ok(samples.length >= 150, `${samples.length} samples`);
  assert.ok(vendors.size >= 25, `${vendors.size} vendors`);
  assert.ok(denials.filter(({ s }) => s.status === 200).length >= 40);
  assert.ok(ordinary.length >= 40);
  for (const s of samples) {
    assert.match(JSON.stringify(s.source), /https:\/\//, `${s.id} names a public source`);
    assert.ok(['verbatim', 'verbatim-body', 'markers', 'ordinary'].includes(s.fidelity), `${s.id}: fidelity ${s.fidelity}`);
  }
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
const old = samples.map((s) => ({ s, r: run(s, FINGERPRINT_SETS['fingerprints-v1.0']!) }));
const oldPass = old.filter(({ s, r }) => DENIALS.has(s.expected.outcome) && r.outcome === 'pass');
const oldRight = old.filter(({ s, r }) => r.outcome === s.expected.outcome);
test(`edge corpus under fingerprints-v1.0 for comparison: ${oldRight.length} of ${samples.length} right (${pct(oldRight.length, samples.length)} %), ${oldPass.length} denials read as pass`, () => {
  assert.ok(oldPass.some(({ s }) => s.id.startsWith('f5-')), 'v1.0 read the F5 Request Rejected page as pass, which v1.1 fixes');
});

test('/methodology.md states the corpus figures this table measures', () => {
  const doc = fs.readFileSync(new URL('../../src/docs/text/methodology.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const deny200 = denials.filter(({ s }) => s.status === 200).length;
  for (const phrase of [`corpus of ${samples.length} edge responses over ${vendors.size} vendors`, `${deny200} denials served with status 200`, `${ordinary.length} ordinary pages`,
    `(${right.length} of ${samples.length})`, `all ${known.length} denials by known vendors`, `fingerprints-v1.0 got ${oldRight.length} of ${samples.length} right and read ${oldPass.length} denials`]) {
    assert.ok(doc.includes(phrase), `methodology.md should say "${phrase}"`);
  }
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
