// The file judgement (src/scanner/file-judge.ts) over real answers: app shells and "not found"
// pages taken from public repositories' built output and from hosts' documented behaviour, served
// at every discovery path the scanner reads, must read as absent, with the check that reads the
// path saying so; real files of each kind must stay present. Every fixture names its public
// source and fidelity (test/fixtures/files/manifest.json); the figures are printed per class.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { formatOf, judgeFile, sniffHtml, type FileFormat, type Instead } from '../../src/scanner/file-judge.ts';
import { AUX_PATHS } from '../../src/scanner/gather.ts';
import { PREVIEW_CHECKS } from '../../src/scanner/checks/preview.ts';
import { evidence, fetched, DOMAIN, type BaselineOptions, type Resp } from './fixtures.ts';

interface Fixture {
  id: string;
  class: 'app-shell' | 'soft-404' | 'real-file';
  fidelity: 'captured' | 'captured-excerpt' | 'written';
  body: string;
  source: Record<string, unknown>;
  served: { status: number; contentType: string; at: '*' | string[] };
  expected: { state: 'present' | 'absent'; kind: 'app-shell' | 'soft-404' | 'html-page' | null; framework: string | null; instead?: Instead };
  note: string;
}

const dir = new URL('../fixtures/files/', import.meta.url);
const { fixtures } = JSON.parse(fs.readFileSync(new URL('manifest.json', dir), 'utf8')) as { fixtures: Fixture[] };
const bodyOf = (f: Fixture) => fs.readFileSync(new URL(f.body, dir), 'utf8');

/** Every path the scanner reads a discovery file at, with the evidence key it files it under. */
const PATHS: ReadonlyArray<[path: string, key: string]> = [
  ['/robots.txt', 'robots:browser'],
  ...AUX_PATHS.map((p): [string, string] => [p, `file:${p}`]),
  ['/docs/start.md', `md-variant:https://${DOMAIN}/docs/start`],
  ['/sitemaps/main.xml', 'sitemap:robots'],
  ['/license.xml', 'license'],
  ['/api/spec.json', `service-desc:https://${DOMAIN}/api/spec.json`],
];

/** The check that reads each path, and how its result names an absent file. */
const READER: Record<string, string> = {
  '/llms.txt': 'discovery.llms-txt', '/sitemap.xml': 'policy.sitemap', '/.well-known/api-catalog': 'discovery.api-catalog',
  '/openapi.json': 'discovery.openapi', '/.well-known/openapi.json': 'discovery.openapi',
  '/.well-known/mcp/server-card.json': 'discovery.mcp-card', '/.well-known/mcp.json': 'discovery.mcp-card',
  '/.well-known/agent-card.json': 'discovery.agent-card', '/.well-known/security.txt': 'trust.security-txt',
  '/.well-known/ard.json': 'discovery.ard', '/.well-known/ai-catalog.json': 'discovery.ard',
  '/agents.md': 'discovery.agents-md',
};
const CHECK = new Map(PREVIEW_CHECKS.map((c) => [c.id, c]));

const pathsOf = (f: Fixture) => (f.served.at === '*' ? PATHS : PATHS.filter(([p]) => (f.served.at as string[]).includes(p)));
const respOf = (f: Fixture): Resp => ({ status: f.served.status, headers: { 'content-type': f.served.contentType }, body: bodyOf(f) });

/** The scan evidence with this answer at `path` (robots.txt, a site file, or nothing else changed). */
function withAnswer(path: string, r: Resp): ReturnType<typeof evidence> {
  const given: BaselineOptions = path === '/robots.txt' ? { robots: r } : { files: { [path]: r } };
  // The baseline site serves a good sitemap; for the sitemap path the answer replaces it.
  return evidence(given);
}

interface Outcome { fixture: Fixture; path: string; ok: boolean; why: string }
const outcomes: Outcome[] = [];

function judgeAt(f: Fixture, path: string, key: string): Outcome {
  const r = respOf(f);
  const view = fetched(key, `https://${DOMAIN}${path}`, r);
  const j = judgeFile(view);
  const want = f.expected;
  const problems: string[] = [];
  if (j.state !== want.state) problems.push(`state ${j.state} (${formatOf(key)}), want ${want.state}`);
  if (want.instead && j.state === 'absent' && j.instead !== want.instead) problems.push(`instead ${j.instead}, want ${want.instead}`);
  if (want.state === 'absent' && f.served.status < 300 && !j.note) problems.push('an absent 2xx answer carries no note saying what came instead');
  // The check that reads the path reports absence with the same words, never a present or broken file.
  const reader = READER[path];
  if (path === '/robots.txt') {
    const ev = withAnswer(path, r);
    if (want.state === 'absent' && f.served.status < 300 && !(ev.robots.state === 'unknown' && /^robots\.txt is absent \(the site answered with/.test(ev.robots.reason))) problems.push(`robots.txt read as ${ev.robots.state}: ${ev.robots.reason}`);
    if (want.state === 'present' && ev.robots.state !== 'parsed') problems.push(`robots.txt read as ${ev.robots.state}: ${ev.robots.reason}`);
  } else if (reader) {
    const out = CHECK.get(reader)!.evaluate(withAnswer(path, r));
    if (want.state === 'absent') {
      const saysAbsent = (out.status === 'fail' || out.status === 'inconclusive') && out.credit === undefined && /^no |could not be found/.test(out.detail);
      const saysWhy = f.served.status >= 300 || out.detail.includes(j.note);
      if (!saysAbsent || !saysWhy) problems.push(`${reader}: ${out.status}${out.credit !== undefined ? ` (${out.credit})` : ''}: ${out.detail}`);
    } else if (/^no /.test(out.detail) || out.status === 'inconclusive') problems.push(`${reader} calls the real file missing: ${out.status}: ${out.detail}`);
  }
  return { fixture: f, path, ok: problems.length === 0, why: problems.join('; ') };
}

describe('file judgement over captured app shells, hosts\' not-found answers and real files', () => {
  test(`the corpus: ${fixtures.length} fixtures, every one naming its public source and fidelity, and the seven frameworks present`, () => {
    for (const f of fixtures) {
      assert.match(JSON.stringify(f.source), /https:\/\//, `${f.id} names a public source`);
      assert.ok(['captured', 'captured-excerpt', 'written'].includes(f.fidelity), `${f.id}: fidelity ${f.fidelity}`);
      assert.ok(f.note.length > 20, `${f.id}: a note says what it is`);
      if (f.fidelity !== 'written') assert.ok(/^[0-9a-f]{40}$/.test(String((f.source.commit ?? (f.source.bodyFrom as Record<string, unknown>)?.commit) ?? '')), `${f.id}: a captured body names its commit`);
    }
    const frameworks = new Set(fixtures.filter((f) => f.class === 'app-shell' && f.fidelity === 'captured').map((f) => f.expected.framework));
    for (const name of ['Next.js', 'Nuxt', 'SvelteKit', 'Angular', 'React', 'Gatsby', 'Docusaurus']) assert.ok(frameworks.has(name), `a captured ${name} build`);
    const readers = new Set(fixtures.filter((f) => f.class === 'real-file').flatMap((f) => f.served.at as string[]));
    for (const p of ['/robots.txt', '/llms.txt', '/sitemap.xml', '/.well-known/security.txt', '/openapi.json', '/.well-known/agent-card.json', '/.well-known/mcp/server-card.json', '/.well-known/api-catalog', '/agents.md']) assert.ok(readers.has(p), `a real file at ${p}`);
  });

  for (const f of fixtures) {
    test(`${f.class} ${f.id} (${f.fidelity}, ${f.served.status}): ${f.expected.state} at ${f.served.at === '*' ? 'every discovery path' : (f.served.at as string[]).join(', ')}`, () => {
      const results = pathsOf(f).map(([path, key]) => judgeAt(f, path, key));
      outcomes.push(...results);
      if (f.expected.kind !== null || f.expected.framework !== null) {
        const page = sniffHtml(f.served.contentType, bodyOf(f), 'llms');
        assert.equal(page?.kind ?? null, f.expected.kind, `${f.id}: the page kind`);
        assert.equal(page?.framework ?? null, f.expected.framework, `${f.id}: the framework`);
      }
      assert.deepEqual(results.filter((r) => !r.ok).map((r) => `${r.path}: ${r.why}`), []);
    });
  }

  test('figures per fidelity class and per kind (printed for /methodology.md)', () => {
    const byFidelity = new Map<string, { right: number; all: number; fixtures: Set<string> }>();
    const byClass = new Map<string, { right: number; all: number }>();
    for (const o of outcomes) {
      const a = byFidelity.get(o.fixture.fidelity) ?? { right: 0, all: 0, fixtures: new Set() };
      a.all++; if (o.ok) a.right++; a.fixtures.add(o.fixture.id);
      byFidelity.set(o.fixture.fidelity, a);
      const c = byClass.get(o.fixture.class) ?? { right: 0, all: 0 };
      c.all++; if (o.ok) c.right++;
      byClass.set(o.fixture.class, c);
    }
    for (const [k, v] of byFidelity) console.log(`file corpus, ${k}: ${v.fixtures.size} fixtures, ${v.right} of ${v.all} path judgements right`);
    for (const [k, v] of byClass) console.log(`file corpus, ${k}: ${v.right} of ${v.all} path judgements right`);
    assert.equal(outcomes.length, fixtures.reduce((n, f) => n + pathsOf(f).length, 0), 'every fixture was judged at every path it is served at');
    assert.ok(outcomes.every((o) => o.ok));
  });
});

describe('file judgement: formats and edges', () => {
  const body = (key: string, r: Resp) => judgeFile(fetched(key, `https://${DOMAIN}/x`, r));
  const CASES: Array<[string, string, Resp, 'present' | 'absent' | 'unknown']> = [
    ['a challenged file is unknown, whatever it holds', 'file:/llms.txt', { status: 403, headers: { 'cf-mitigated': 'challenge', 'content-type': 'text/html' }, body: '<!doctype html><title>Just a moment...</title>' }, 'unknown'],
    ['a 5xx is unknown', 'file:/llms.txt', { status: 503, body: 'busy' }, 'unknown'],
    ['a plain 404 is absent', 'file:/llms.txt', { status: 404, body: 'nope' }, 'absent'],
    ['an empty 200 is absent', 'file:/.well-known/security.txt', { status: 200, headers: { 'content-type': 'text/plain' }, body: '' }, 'absent'],
    ['a sitemap whose first node is a comment is still XML', 'file:/sitemap.xml', { headers: { 'content-type': 'application/xml' }, body: '<!-- generated --><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>' }, 'present'],
    ['an llms.txt quoting HTML further down is still the file', 'file:/llms.txt', { headers: { 'content-type': 'text/markdown' }, body: '# Docs\n\n```html\n<!doctype html><html><body><div id="root"></div></body></html>\n```\n' }, 'present'],
    ['a Markdown twin that opens with a <div> and no page around it is still Markdown', 'md-variant:https://x/a', { headers: { 'content-type': 'text/markdown' }, body: '<div align="center">\n\n# A\n\n</div>\n' }, 'present'],
    ['an HTML page at a JSON path without a Content-Type is a page', 'file:/.well-known/agent-card.json', { headers: { 'content-type': '' }, body: '\n  <div id="app"></div><script src="/app.js"></script>' }, 'absent'],
    ['links and pages are never judged by a file format', 'llms-link:https://x/a', { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>A</title>' }, 'present'],
  ];
  for (const [name, key, r, want] of CASES) test(`${name} -> ${want}`, () => assert.equal(body(key, r).state, want));

  test('every evidence key a scan files a discovery file under has its format', () => {
    const want: Record<string, FileFormat> = { 'robots:browser': 'robots', 'file:/llms.txt': 'llms', 'file:/agents.md': 'markdown', 'file:/llms-full.txt': 'llms', 'file:/sitemap.xml': 'xml', 'sitemap:robots': 'xml', license: 'xml', 'file:/.well-known/security.txt': 'text', 'md-variant:https://x/a': 'markdown', 'file:/.well-known/api-catalog': 'json', 'service-desc:https://x/s.json': 'json', 'llms-link:https://x/a': 'any', canonical: 'any', 'content:markdown': 'any' };
    for (const [key, format] of Object.entries(want)) assert.equal(formatOf(key), format, key);
    for (const p of AUX_PATHS) assert.notEqual(formatOf(`file:${p}`), 'any', p);
  });
});
