// The edge corpus (test/fixtures/edges/): loading, classifying, and its figures per fidelity
// class, rendered once for the table test's summary, /methodology.md and bench/results.md so the
// three cannot say different things (scripts/fixtures/edge-corpus-figures.ts writes the two files,
// test/scanner/edge-corpus.test.ts fails when they drift).
import fs from 'node:fs';
import { classifyResponse, DENIALS, type EdgeOutcome } from '../../src/scanner/classify.ts';
import { FINGERPRINT_SETS, matchFingerprints } from '../../src/scanner/fingerprints.ts';
import { analyzePage } from '../../src/scanner/page.ts';
import { digestOf } from '../../src/scanner/page-digest.ts';
import { softBlockMarker, softBlockOf } from '../../src/scanner/soft-block.ts';
import { FINGERPRINTS_VERSION } from '../../src/scanner/versions.ts';
import { isHtml, MUTATIONS, type Mutation } from './edge-mutations.ts';

/**
 * How faithful a sample is to what an edge served, most faithful first. Only the first two are real
 * responses; captured-text holds a real page's words in markup of ours (soft blocks are judged on words).
 */
export const FIDELITY = ['captured-response', 'captured-body', 'captured-text', 'built-around-published-markers', 'written-by-us'] as const;
export type Fidelity = (typeof FIDELITY)[number];
export const CAPTURED: ReadonlySet<string> = new Set<Fidelity>(['captured-response', 'captured-body']);

const WHAT: Record<Fidelity, string> = {
  'captured-response': 'status, headers and body as an edge served them',
  'captured-body': 'the body as an edge served it; status and headers as the source gives them',
  'captured-text': 'the visible text a crawler captured from a real page, wrapped by us in a minimal HTML page; status and headers ours',
  'built-around-published-markers': 'a page we assembled around the markers a detector or vendor publishes',
  'written-by-us': 'an ordinary page we wrote to carry words and widgets that look like a block',
};

export interface Sample {
  id: string; vendor: string | null; status: number; headers: Record<string, string>; body: string; isHome?: boolean;
  source: Record<string, string>; fidelity: Fidelity; note: string; statusNote?: string; redacted?: string; altered?: string;
  /** The page's language where its markup does not say (an <html lang> attribute). */
  lang?: string;
  expected: { outcome: EdgeOutcome; vendor: string | null };
}

export const CORPUS_DIR = new URL('../fixtures/edges/', import.meta.url);

export function loadSamples(): Sample[] {
  return fs.readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.json')).sort()
    .map((f) => JSON.parse(fs.readFileSync(new URL(f, CORPUS_DIR), 'utf8')) as Sample);
}

/** Set-Cookie names from a header value folded with ", " (as HARs and our samples store them). */
export function cookieNames(setCookie: string | undefined): string[] {
  return (setCookie ?? '').split(/,(?=\s*[^;,=\s]+=)/).map((c) => c.split('=')[0]!.trim()).filter(Boolean);
}

export interface Result { outcome: EdgeOutcome; vendors: string[]; markers: string[]; mitigating: string[] }

/**
 * The page the browser control is taken to have got beside each sample: a real home page, captured
 * (css-tricks.com as Cloudflare served it). Every sample is judged as an agent's answer while the
 * browser got this page, the case in which a 200 that refuses is a soft block (soft-block.ts).
 */
export const REAL_CONTROL_ID = 'ordinary-captured-css-tricks-cloudflare';
const URL_ = 'https://www.example.com/';

function digestOfSample(body: string) {
  return digestOf(analyzePage(body), body, URL_);
}

let realControl: ReturnType<typeof digestOfSample> | undefined;
function realControlDigest() {
  return (realControl ??= digestOfSample(JSON.parse(fs.readFileSync(new URL(`${REAL_CONTROL_ID}.json`, CORPUS_DIR), 'utf8')).body as string));
}

/**
 * Classification and attribution of one response, as a scan would see it: an agent's home-page
 * answer judged alone, then (when it passed) beside the browser control's page, `control`: the
 * captured real page by default, `null` for the response alone, or a body (the same page for
 * everyone, say).
 */
export function classifySample(s: Pick<Sample, 'status' | 'headers' | 'body' | 'isHome'>, set = FINGERPRINT_SETS[FINGERPRINTS_VERSION]!, control: string | null | undefined = undefined): Result {
  const view = { status: s.status, headers: s.headers, setCookieNames: cookieNames(s.headers['set-cookie']), body: s.body, bodyBytes: Buffer.byteLength(s.body) };
  const classified = classifyResponse({ ok: true, ...view, redirects: [] }, s.isHome !== false, set);
  const fp = matchFingerprints(view, set);
  // Vendors whose mitigation markers fired (presence alone names a CDN, not the one who denied).
  const mitigating = [...new Set([...fp.challenge, ...fp.deny, ...fp.rateLimit].map((h) => h.vendor))];
  if (classified.outcome === 'pass' && s.isHome !== false && control !== null) {
    const c = control === undefined ? realControlDigest() : digestOfSample(control);
    const a = digestOfSample(s.body);
    const sb = softBlockOf(c, a);
    if (sb) return { outcome: 'block', vendors: classified.vendors, markers: [...classified.markers, softBlockMarker(sb, a.textChars, c.textChars)], mitigating };
  }
  return { ...classified, mitigating };
}

export interface ClassFigures {
  fidelity: Fidelity | 'all';
  samples: number;
  vendors: number;
  /** Samples whose outcome is the expected one. */
  right: number;
  denials: number;
  denialsAsPass: number;
  /** Denials whose vendor has a fingerprint, and of those, how many name it. */
  knownDenials: number;
  named: number;
}

export function figuresOf(fidelity: ClassFigures['fidelity'], rows: ReadonlyArray<{ s: Sample; r: Result }>): ClassFigures {
  const denials = rows.filter(({ s }) => DENIALS.has(s.expected.outcome));
  const known = denials.filter(({ s }) => s.expected.vendor);
  return {
    fidelity,
    samples: rows.length,
    vendors: new Set(rows.flatMap(({ s }) => (s.vendor ? [s.vendor] : []))).size,
    right: rows.filter(({ s, r }) => r.outcome === s.expected.outcome).length,
    denials: denials.length,
    denialsAsPass: denials.filter(({ r }) => r.outcome === 'pass').length,
    knownDenials: known.length,
    named: known.filter(({ s, r }) => r.vendors.includes(s.expected.vendor!)).length,
  };
}

/** One row per fidelity class, then the whole corpus. */
export function corpusFigures(rows: ReadonlyArray<{ s: Sample; r: Result }>): ClassFigures[] {
  return [...FIDELITY.map((f) => figuresOf(f, rows.filter(({ s }) => s.fidelity === f))), figuresOf('all', rows)];
}

/** The summary line the table test prints. */
export function summaryLine(figures: readonly ClassFigures[]): string {
  const all = figures.at(-1)!;
  const parts = figures.slice(0, -1).map((f) => `${f.fidelity} ${f.samples} (${f.vendors} vendor${f.vendors === 1 ? '' : 's'}, ${f.right}/${f.samples} right, ${f.denialsAsPass}/${f.denials} denials as pass)`);
  return `edge corpus (${FINGERPRINTS_VERSION}), ${all.samples} samples: ${parts.join('; ')}`;
}

const ratio = (n: number, d: number) => (d === 0 ? '–' : `${n} of ${d}`);

/** The table of figures per class, in Markdown. */
export function figuresTable(figures: readonly ClassFigures[]): string {
  const head = '| fidelity class | samples | vendors | outcome right | denials read as `pass` | vendor named |\n|---|---|---|---|---|---|';
  const rows = figures.map((f) => {
    const name = f.fidelity === 'all' ? '**all**' : `${f.fidelity} (${WHAT[f.fidelity]})`;
    return `| ${name} | ${f.samples} | ${f.vendors} | ${ratio(f.right, f.samples)} | ${ratio(f.denialsAsPass, f.denials)} | ${ratio(f.named, f.knownDenials)} |`;
  });
  return [head, ...rows].join('\n');
}

/** Every variant of every sample that a mutation applies to (HTML-only ones to HTML bodies). */
export function variantsOf(samples: readonly Sample[]): Array<{ s: Sample; m: Mutation; body: string }> {
  return samples.flatMap((s) => MUTATIONS.filter((m) => !m.htmlOnly || isHtml(s.headers, s.body)).map((m) => ({ s, m, body: m.apply(s.body) })));
}

export interface MutationFigures {
  fidelity: Fidelity | 'all';
  /** Denial samples, their variants, the variants that keep outcome and vendor, those read as pass. */
  denials: number; variants: number; kept: number; asPass: number;
}

/** The mutation table's figures per fidelity class, from classified variants of denials. */
export function mutationFigures(rows: ReadonlyArray<{ s: Sample; r: Result }>): MutationFigures[] {
  const of = (fidelity: MutationFigures['fidelity'], list: typeof rows): MutationFigures => ({
    fidelity,
    denials: new Set(list.map(({ s }) => s.id)).size,
    variants: list.length,
    kept: list.filter(({ s, r }) => r.outcome === s.expected.outcome && (!s.expected.vendor || r.vendors.includes(s.expected.vendor))).length,
    asPass: list.filter(({ r }) => r.outcome === 'pass').length,
  });
  return [...FIDELITY.map((f) => of(f, rows.filter(({ s }) => s.fidelity === f))), of('all', rows)];
}

export interface CorpusReport {
  figures: ClassFigures[];
  mutations: MutationFigures[];
  /** Variants of denials that fingerprints-v1.1, on bytes, read as pass. */
  v11MutationsAsPass: number;
  /** fingerprints-v1.0 on the same corpus: right, and denials read as pass. */
  v10: { right: number; denialsAsPass: number };
  /** fingerprints-v1.1 on the captured samples, the set they corrected. */
  v11Captured: { samples: number; right: number; denials: number; denialsAsPass: number; passIds: string[] };
  /** Samples that pass alone and are soft blocks beside the real control page, per fidelity class. */
  soft: { total: number; byClass: Array<{ fidelity: Fidelity; ids: string[] }> };
}

/** The corpus paragraph of /methodology.md (src/docs/text/edge-corpus.md, inserted at {{EDGE_CORPUS}}). */
export function methodologyText(rep: CorpusReport): string {
  const all = rep.figures.at(-1)!;
  const captured = rep.figures.filter((f) => CAPTURED.has(f.fidelity));
  const capturedSamples = captured.reduce((n, f) => n + f.samples, 0);
  return `${FINGERPRINTS_VERSION} is tested against a corpus of ${all.samples} edge responses over ${all.vendors} vendors
(test/fixtures/edges/). Each sample names its public source (an issue comment, a repository
file at a commit, a vendor's page) and carries one fidelity class. Only the ${capturedSamples} captured samples
are real edge responses. The pages built around published markers agree with the classifier
largely by construction, since its markers come from the same documents; they show that each
marker is read in its context, not that real pages are recognised. The pages we wrote are
ordinary pages that mention captchas and vendors, carry reCAPTCHA or Turnstile widgets in
forms, load bot-detection scripts or show cookie walls, and must stay \`pass\`.

Markers are matched on the page as a browser renders it (src/scanner/rendered.ts): its text with
entities decoded, whitespace collapsed across line breaks and case folded, and its markup written
out canonically (lower-case tags, attribute values decoded and quoted alike). Real block pages
differ from a vendor's template in exactly these ways, and a marker matched on the bytes misses
them.

${softText(rep)}

${figuresTable(rep.figures)}

${mutationText(rep)}

"Vendors" counts distinct vendors among a class's samples; "vendor named" counts the denials
whose vendor has a fingerprint. The captured samples are not a held-out test: ${FINGERPRINTS_VERSION} was corrected
on them. Before, fingerprints-v1.1 got ${rep.v11Captured.right} of ${rep.v11Captured.samples} of them right and read ${rep.v11Captured.denialsAsPass} of their ${rep.v11Captured.denials} denials as \`pass\`
(${rep.v11Captured.passIds.join(', ')}). fingerprints-v1.0 got ${rep.v10.right} of ${all.samples} right on the same corpus and
read ${rep.v10.denialsAsPass} denials (F5's "Request Rejected" page among them) as \`pass\`. Older reports keep
the name of the set that judged them.
`;
}

/** How the table judges a 200 that refuses: as an agent's answer beside the browser's real page. */
function softText(rep: CorpusReport): string {
  const parts = rep.soft.byClass.filter((c) => c.ids.length).map((c) => `${c.ids.length} ${c.fidelity} (${c.ids.join(', ')})`).join('; ');
  return `Every sample is judged as an agent's answer for the home page while the browser control got the
site's real page (the captured ${REAL_CONTROL_ID}), as a scan judges a grid cell. A 200 page
that names no vendor is then a soft block (\`block\`, src/scanner/soft-block.ts) when it is short beside
the browser's page and is a refusal, a licensing or sign-in gate or a "verify you are human" page with
denial wording or no main content: ${rep.soft.total} samples, ${parts}. Judged beside
itself (the same page for the browser and the agent) every sample keeps the outcome it has alone.`;
}

/** The mutation table's sentence: every denial in every variant. */
function mutationText(rep: CorpusReport): string {
  const all = rep.mutations.at(-1)!;
  const perClass = rep.mutations.slice(0, -1).filter((f) => f.variants > 0).map((f) => `${f.fidelity} ${f.kept} of ${f.variants}`).join(', ');
  return `Every denial of the corpus is also classified in each of ${MUTATIONS.length} variants a browser renders the same
(${MUTATIONS.map((m) => m.name).join(', ')}; entities, tags, attributes and no-break spaces on HTML bodies only):
${all.variants} variants of ${all.denials} denials, of which ${all.kept} keep their outcome and vendor (${perClass}) and
${all.asPass} are read as \`pass\`. fingerprints-v1.1, which matched markers on the bytes, read ${rep.v11MutationsAsPass} of
them as \`pass\`.`;
}

/** The corpus section of bench/results.md, between its markers. */
export function benchSection(rep: CorpusReport): string {
  return `<!-- bench:edge-corpus:start -->
## Edge corpus (\`test/scanner/edge-corpus.test.ts\`)

Figures of ${FINGERPRINTS_VERSION} on test/fixtures/edges/ per fidelity class (written by
\`npm run corpus:figures\`; the table test fails when they drift from the corpus).

${figuresTable(rep.figures)}

${mutationText(rep)}
<!-- bench:edge-corpus:end -->`;
}

export const METHODOLOGY_PART = new URL('../../src/docs/text/edge-corpus.md', import.meta.url);
export const BENCH_RESULTS = new URL('../../bench/results.md', import.meta.url);
const BENCH_BLOCK = /<!-- bench:edge-corpus:start -->[\s\S]*?<!-- bench:edge-corpus:end -->/;

/** bench/results.md with its corpus section replaced (or added after the scan section). */
export function withBenchSection(results: string, section: string): string {
  if (BENCH_BLOCK.test(results)) return results.replace(BENCH_BLOCK, () => section);
  const anchor = '<!-- bench:scan:end -->';
  return results.includes(anchor) ? results.replace(anchor, `${anchor}\n\n${section}`) : `${results.trimEnd()}\n\n${section}\n`;
}

function softBlocks(rows: ReadonlyArray<{ s: Sample; r: Result }>): CorpusReport['soft'] {
  const ids = rows.filter(({ r }) => r.markers.some((m) => m.startsWith('soft block'))).map(({ s }) => s);
  return { total: ids.length, byClass: FIDELITY.map((fidelity) => ({ fidelity, ids: ids.filter((s) => s.fidelity === fidelity).map((s) => s.id) })) };
}

/** Everything the corpus says, classified by the current set and by fingerprints-v1.0. */
export function corpusReport(samples: readonly Sample[] = loadSamples()): { rows: Array<{ s: Sample; r: Result }>; mutated: Array<{ s: Sample; m: Mutation; body: string; r: Result }>; rep: CorpusReport } {
  const rows = samples.map((s) => ({ s, r: classifySample(s) }));
  // The older sets judged responses alone: soft blocks came later (issue 36), so they are left out of the comparison.
  const old = samples.map((s) => ({ s, r: classifySample(s, FINGERPRINT_SETS['fingerprints-v1.0']!, null) }));
  const v10 = figuresOf('all', old);
  const v11Rows = samples.filter((s) => CAPTURED.has(s.fidelity)).map((s) => ({ s, r: classifySample(s, FINGERPRINT_SETS['fingerprints-v1.1']!, null) }));
  const v11 = figuresOf('all', v11Rows);
  const passIds = v11Rows.filter(({ s, r }) => DENIALS.has(s.expected.outcome) && r.outcome === 'pass').map(({ s }) => s.id);
  const denialVariants = variantsOf(samples.filter((s) => DENIALS.has(s.expected.outcome)));
  const mutated = denialVariants.map((v) => ({ ...v, r: classifySample({ ...v.s, body: v.body }) }));
  const v11Variants = denialVariants.filter((v) => classifySample({ ...v.s, body: v.body }, FINGERPRINT_SETS['fingerprints-v1.1']!, null).outcome === 'pass').length;
  return { rows, mutated, rep: { figures: corpusFigures(rows), mutations: mutationFigures(mutated), v11MutationsAsPass: v11Variants, v10: { right: v10.right, denialsAsPass: v10.denialsAsPass },
    v11Captured: { samples: v11.samples, right: v11.right, denials: v11.denials, denialsAsPass: v11.denialsAsPass, passIds }, soft: softBlocks(rows) } };
}
