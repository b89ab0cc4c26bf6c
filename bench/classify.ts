// `npm run bench:classify`: what reading pages as a browser renders them costs the classifier.
// fingerprints-v1.1 matched markers on the lower-cased bytes; v1.2 parses each body it reads
// once (htmlparser2) into rendered text and canonical markup. Both sets classify the same
// answers in alternating rounds on one process; medians per classification. A scan classifies
// each distinct answer once (17 for a scan of the bench world), so the per-scan cost is about
// 17 times the home-page figure. Writes bench/results.md's `classify` section; asserts nothing.
import os from 'node:os';
import { classifyResponse, type ClassifyInput } from '../src/scanner/classify.ts';
import { FINGERPRINT_SETS } from '../src/scanner/fingerprints.ts';
import { loadSamples, cookieNames } from '../test/scanner/edge-corpus.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median } from './lib/stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SETS = ['fingerprints-v1.1', 'fingerprints-v1.2'] as const;

const input = (status: number, headers: Record<string, string>, body: string): ClassifyInput => ({
  ok: true, status, headers, setCookieNames: cookieNames(headers['set-cookie']), body, bodyBytes: Buffer.byteLength(body), redirects: [],
});

/** An ordinary home page of about `kb` KB: navigation, paragraphs, links, a script or two. */
function homePage(kb: number): string {
  const item = (i: number) => `<article class="card"><h2><a href="/products/${i}">Product ${i}</a></h2><p>Our product number ${i} is made &amp; shipped with care; read what customers say about it &mdash; and why it lasts.</p><img src="/img/${i}.webp" alt="Product ${i}" loading="lazy"></article>\n`;
  let body = '';
  for (let i = 0; body.length < kb * 1024; i++) body += item(i);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example Store</title><script src="/static/app.js" defer></script><script>window.dataLayer=[];</script></head><body><header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header><main>${body}</main><footer>© 2026 Example Store</footer></body></html>`;
}

const corpus = loadSamples().map((s) => input(s.status, s.headers, s.body));
const cases: Array<[what: string, inputs: ClassifyInput[]]> = [
  [`each of the ${corpus.length} corpus samples (mean)`, corpus],
  ['a 40 KB ordinary home page', [input(200, { 'content-type': 'text/html' }, homePage(40))]],
  ['a 250 KB ordinary page (over the size bound of every marker but three of Cloudflare\'s)', [input(200, { 'content-type': 'text/html' }, homePage(250))]],
];

/** Microseconds per classification of `inputs` with `set`, one round. */
function round(inputs: ClassifyInput[], set: (typeof SETS)[number]): number {
  const fps = FINGERPRINT_SETS[set]!;
  const reps = Math.max(1, Math.ceil(200 / inputs.length));
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) for (const i of inputs) classifyResponse(i, true, fps);
  return ((performance.now() - t0) * 1000) / (reps * inputs.length);
}

const load = os.loadavg()[0]!.toFixed(1);
const rows: string[] = [];
for (const [what, inputs] of cases) {
  const times: Record<string, number[]> = Object.fromEntries(SETS.map((s) => [s, []]));
  for (const s of SETS) round(inputs, s); // warm-up
  for (let r = 0; r < ROUNDS; r++) for (const s of r % 2 ? [...SETS].reverse() : SETS) times[s]!.push(round(inputs, s));
  const [a, b] = SETS.map((s) => median(times[s]!));
  rows.push(`| ${what} | ${fmt(a!, 1)} µs | ${fmt(b!, 1)} µs |`);
  console.log(rows.at(-1));
}

writeSection('classify', `## Classifier: markers on bytes vs on the rendered page (\`npm run bench:classify\`)

Measured ${nowIso()} on ${describeMachine()}; load average at start ${load} (the machine is shared). One process, ${ROUNDS} alternating rounds per case, medians per classification
(\`classifyResponse\`, vendor attribution included).

| answer classified | fingerprints-v1.1 (bytes) | fingerprints-v1.2 (rendered) |
|---|---|---|
${rows.join('\n')}`);
