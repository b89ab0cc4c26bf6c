// The CLI's pure parts: argument parsing, proxy selection, the gate, the difference
// sentences, and why a report takes no upload.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, parseLocalTarget } from '../../src/cli/args.ts';
import { baselineFrom, baselineRefusal, combineExit, decideCheckGates, readBaseline, unknownAssertIds, withRefusals, type Baseline } from '../../src/cli/check-gates.ts';
import { renderJunit, renderMarkdown } from '../../src/cli/formats.ts';
import { renderHuman } from '../../src/cli/render.ts';
import { decideGate } from '../../src/cli/gate.ts';
import { describeDifferences } from '../../src/cli/matrix-view.ts';
import { bypassesProxy, describeProxy, proxyFor } from '../../src/cli/proxy-env.ts';
import { startProgress } from '../../src/cli/progress.ts';
import { colourEnabled, makeStyle } from '../../src/cli/style.ts';
import { whyNoUpload } from '../../src/cli/vantage.ts';
import { parseExtraHeaders, previewDeploymentNotice, withOriginHeaders } from '../../src/cli/headers.ts';
import { cleanDeep, cleanText, markdownText } from '../../src/cli/sanitize.ts';
import type { ScanReport } from '../../src/cli/api.ts';
import type { Egress } from '../../src/net/egress.ts';

const LEAD = ['--name', 'Ada', '--email', 'ada@example.org'];

describe('CLI arguments', () => {
  test('a hosted scan with every flag', () => {
    const p = parseCli(['scan', 'example.org', ...LEAD, '--min-score', '70', '--profile', 'docs', '--fresh', '--json', '--api', 'https://api.example.org'], {});
    assert.equal(p.kind, 'scan');
    if (p.kind !== 'scan') return;
    assert.equal(p.local, null);
    assert.deepEqual(p.options, {
      target: 'example.org', name: 'Ada', email: 'ada@example.org', minScore: 70, profile: 'docs', fresh: true, json: true, format: 'json',
      asserts: [], writeBaseline: false, api: 'https://api.example.org',
    });
  });

  test('the API comes from --api, else AGENT_READINESS_API; without either a hosted scan is a usage error saying how to set it', () => {
    const api = (argv: string[], env: Record<string, string>) => {
      const p = parseCli(['scan', 'example.org', ...LEAD, ...argv], env);
      return p.kind === 'scan' ? p.options.api : p.kind;
    };
    const none = parseCli(['scan', 'example.org', ...LEAD], {});
    assert.equal(none.kind, 'usage-error');
    assert.match(none.kind === 'usage-error' ? none.message : '', /--api <URL> or set AGENT_READINESS_API/);
    assert.equal(parseCli(['scan', 'localhost:3000'], {}).kind, 'scan', 'a local scan needs no API');
    assert.equal(api([], { AGENT_READINESS_API: 'http://env.test:1' }), 'http://env.test:1');
    assert.equal(api(['--api', 'http://flag.test:2'], { AGENT_READINESS_API: 'http://env.test:1' }), 'http://flag.test:2');
  });

  test('help, version and usage errors', () => {
    assert.equal(parseCli([], {}).kind, 'help');
    assert.equal(parseCli(['--help'], {}).kind, 'help');
    assert.equal(parseCli(['-v'], {}).kind, 'version');
    const errors: Array<[string[], RegExp]> = [
      [['scan', 'example.org'], /--name <name> --email <email>/],
      [['scan'], /needs a domain/],
      [['fetch', 'x'], /unknown command/],
      [['scan', 'example.org', ...LEAD, '--min-score', '101'], /0 to 100/],
      [['scan', 'example.org', ...LEAD, '--min-score', '7.5'], /integer/],
      [['scan', 'example.org', ...LEAD, '--profile', 'shop'], /--profile must be one of/],
      [['scan', 'example.org', ...LEAD, '--api', 'ftp://x'], /not an http\(s\) URL/],
      [['scan', 'example.org', ...LEAD, '--colour'], /Unknown option/],
      [['scan', 'example.org', ...LEAD, '--format', 'xml'], /--format must be one of text, json, markdown, junit/],
      [['scan', 'example.org', ...LEAD, '--json', '--format', 'junit'], /--json means --format json/],
      [['scan', 'example.org', ...LEAD, '--assert', 'access.user-agents=fatal'], /--assert takes <check-id>\[=error\|warn\]/],
      [['scan', 'example.org', ...LEAD, '--write-baseline'], /--write-baseline needs --baseline/],
    ];
    for (const [argv, message] of errors) {
      const p = parseCli(argv, {});
      assert.equal(p.kind, 'usage-error', argv.join(' '));
      assert.match(p.kind === 'usage-error' ? p.message : '', message);
    }
  });

  test('localhost targets need no contact details; other loopback spellings are not local mode', () => {
    assert.deepEqual(parseLocalTarget('localhost:3000'), { scheme: 'http', host: 'localhost', port: 3000, display: 'localhost:3000' });
    assert.deepEqual(parseLocalTarget('https://127.0.0.1:8443/'), { scheme: 'https', host: '127.0.0.1', port: 8443, display: '127.0.0.1:8443' });
    assert.deepEqual(parseLocalTarget('[::1]:5173'), { scheme: 'http', host: '::1', port: 5173, display: '[::1]:5173' });
    assert.equal(parseLocalTarget('localhost:3000/docs'), null);
    assert.equal(parseLocalTarget('127.0.0.2:3000'), null);
    assert.equal(parseLocalTarget('localhost.example.org'), null);
    const p = parseCli(['scan', 'localhost:3000'], {});
    assert.equal(p.kind === 'scan' && p.local?.port, 3000);
  });
});

describe('CLI per-check gates and formats', () => {
  const catalog = { rubricVersion: 'rubric-v9', ids: ['a.one', 'b.two', 'c.three'] };
  const report = {
    domain: 'example.org', scannedAt: '2026-11-23T00:00:00.000Z', headline: 'open', confidence: 'high', reportUrl: 'https://svc.example/r/x',
    score: { value: 80, rubricVersion: 'rubric-v9', decidedCount: 9, minDecided: 8 },
    checks: [
      { id: 'a.one', category: 'access', status: 'fail', detail: 'blocked <edge> & "more"' },
      { id: 'b.two', category: 'access', status: 'pass' },
      { id: 'c.three', category: 'docs', status: 'inconclusive' },
    ],
  };

  test('--assert parses repeatable ids with levels; error is the default', () => {
    const p = parseCli(['scan', 'example.org', ...LEAD, '--api', 'http://a.test', '--assert', 'a.one', '--assert', 'b.two=warn', '--format', 'junit'], {});
    assert.ok(p.kind === 'scan');
    assert.deepEqual(p.options.asserts, [{ id: 'a.one', level: 'error' }, { id: 'b.two', level: 'warn' }]);
    assert.equal(p.options.format, 'junit');
  });

  test('unknown assert ids are named with the valid list; known ones pass', () => {
    assert.equal(unknownAssertIds([{ id: 'a.one', level: 'error' }], catalog), null);
    assert.match(unknownAssertIds([{ id: 'nope', level: 'error' }], catalog) ?? '', /unknown check id for --assert: nope\. Valid ids \(rubric-v9\): a\.one, b\.two, c\.three/);
  });

  test('error assertions gate, warn assertions only report; regressions gate and improvements are named', () => {
    assert.equal(decideCheckGates(report.checks, [{ id: 'a.one', level: 'warn' }], null).exitCode, 0);
    const g = decideCheckGates(report.checks, [{ id: 'a.one', level: 'error' }, { id: 'b.two', level: 'error' }], null);
    assert.equal(g.exitCode, 1);
    assert.deepEqual(g.assertions.map((a) => a.failed), [true, false]);
    const doc = { ...baselineFrom(report, 'then'), checks: { 'a.one': 'pass', 'b.two': 'fail', 'c.three': 'inconclusive' } };
    const b = decideCheckGates(report.checks, [], { file: 'base.json', doc });
    assert.deepEqual([b.exitCode, b.baseline?.regressions, b.baseline?.improvements], [1, ['a.one'], ['b.two']]);
    assert.deepEqual(combineExit(0, 1, 2), 2);
    assert.deepEqual(combineExit(0, 1), 1);
  });

  test('a gated check the scan could not decide is could-not-test (exit 2), named with its reason; at warn it only warns', () => {
    const rows: Array<{ asserts: Array<{ id: string; level: 'error' | 'warn' }>; code: number; message: RegExp }> = [
      { asserts: [{ id: 'c.three', level: 'error' }], code: 2, message: /^could not test: --assert c\.three: the scan could not decide this check \(inconclusive\)$/ },
      { asserts: [{ id: 'd.four', level: 'error' }], code: 2, message: /^could not test: --assert d\.four: the scan could not decide this check \(the report has no such check\)$/ },
      { asserts: [{ id: 'a.one', level: 'error' }, { id: 'c.three', level: 'error' }], code: 2, message: /could not test: --assert c\.three/ },
      { asserts: [{ id: 'c.three', level: 'warn' }], code: 0, message: /^warning: --assert c\.three=warn: the scan could not decide this check \(inconclusive\); not gating$/ },
    ];
    for (const row of rows) {
      const g = decideCheckGates(report.checks, row.asserts, null);
      assert.equal(g.exitCode, row.code, JSON.stringify(row.asserts));
      assert.ok(g.messages.some((m) => row.message.test(m)), g.messages.join('\n'));
    }
    const withDetail = decideCheckGates([{ id: 'x.y', status: 'error', detail: 'robots.txt timed out' }], [{ id: 'x.y', level: 'error' }], null);
    assert.deepEqual([withDetail.assertions[0]?.undecided, withDetail.messages], [true, ['could not test: --assert x.y: the scan could not decide this check (error: robots.txt timed out)']]);
  });

  test('a check the baseline decided and this scan could not is could-not-test; one undecided in both is not', () => {
    const doc = { ...baselineFrom(report, 'then'), checks: { 'a.one': 'fail', 'b.two': 'pass', 'c.three': 'pass' } };
    const g = decideCheckGates(report.checks, [], { file: 'base.json', doc });
    assert.equal(g.exitCode, 2);
    assert.deepEqual(g.baseline?.undecided, [{ id: 'c.three', status: 'inconclusive', why: 'inconclusive' }]);
    assert.ok(g.messages.includes('could not test: baseline c.three: it was pass in the baseline and this scan could not decide it (inconclusive)'), g.messages.join('\n'));
    const gone = decideCheckGates(report.checks.filter((c) => c.id !== 'b.two'), [], { file: 'base.json', doc });
    assert.deepEqual(gone.baseline?.undecided.map((u) => [u.id, u.status]), [['b.two', 'absent'], ['c.three', 'inconclusive']]);
    const bothUndecided = decideCheckGates(report.checks, [], { file: 'base.json', doc: { ...doc, checks: { ...doc.checks, 'c.three': 'skipped' } } });
    assert.equal(bothUndecided.exitCode, 0);
  });

  test('a baseline is written only from a scan that decided at least the rubric minimum', () => {
    assert.equal(baselineRefusal(report), null);
    assert.match(baselineRefusal({ ...report, score: { ...report.score, decidedCount: 2 } }) ?? '', /^not writing a baseline: the scan decided 2 checks, fewer than the 8 the rubric needs/);
    const refused = withRefusals(decideCheckGates(report.checks, [], null), ['why']);
    assert.deepEqual([refused.exitCode, refused.refusals, refused.messages], [2, ['why'], ['could not test: why']]);
  });

  test('a baseline with vanished ids or not a baseline at all is refused with a reason; one of another rubric is read and says "rubric changed"', () => {
    const good = JSON.stringify(baselineFrom(report, 'then'));
    assert.equal(typeof readBaseline('b.json', good, catalog), 'object');
    // Another rubric's baseline is read (its ids are not judged against this rubric); the comparison says "rubric changed".
    const other = readBaseline('b.json', good, { rubricVersion: 'rubric-v10', ids: ['a.one'] });
    assert.equal(typeof other, 'object');
    const g = decideCheckGates(report.checks.map((c) => ({ ...c, status: 'fail' })), [], { file: 'b.json', doc: other as Baseline }, 'rubric-v10');
    assert.deepEqual([g.exitCode, g.baseline?.regressions, g.baseline?.improvements, g.baseline?.rubricChanged], [2, [], [], { baseline: 'rubric-v9', scan: 'rubric-v10' }]);
    assert.deepEqual(g.messages, ['could not test: rubric changed: the baseline b.json was written under rubric-v9 and this scan was scored with rubric-v10, so no check is compared (neither a regression nor an improvement); refresh it with --baseline b.json --write-baseline, or scan with --rubric rubric-v9 to compare with it']);
    assert.equal(decideCheckGates(report.checks, [], { file: 'b.json', doc: other as Baseline }, 'rubric-v9').baseline?.rubricChanged, undefined, 'the same rubric compares');
    assert.match(readBaseline('b.json', good, { ...catalog, ids: ['a.one', 'b.two'] }) as string, /stale: check id c\.three no longer exists/);
    assert.match(readBaseline('b.json', '{"x":1}', catalog) as string, /not an agent-readiness baseline/);
    assert.match(readBaseline('b.json', 'nope', catalog) as string, /not JSON/);
    const { domain: _d, ...noDomain } = JSON.parse(good) as Record<string, unknown>;
    assert.match(readBaseline('b.json', JSON.stringify(noDomain), catalog) as string, /not an agent-readiness baseline/);
  });

  test('a baseline written for another domain is refused, naming both', () => {
    const good = JSON.stringify(baselineFrom(report, 'then'));
    assert.equal(typeof readBaseline('b.json', good, catalog, 'example.org'), 'object');
    assert.equal(readBaseline('b.json', good, catalog, 'example.net'), 'the baseline b.json was written for example.org, not example.net; compare a scan of example.org, or write a baseline for example.net with --baseline <file> --write-baseline');
  });

  test('JUnit has one testcase per check, fail as failure, inconclusive as skipped, text escaped; Markdown has a row per check', () => {
    const g = decideCheckGates(report.checks, [{ id: 'a.one', level: 'error' }], null);
    const summary = { report: report as never, gate: { minScore: null, result: 'absent' as const, score: 80, exitCode: 0 as const, message: '' }, checks: g, exitCode: 1, fixes: new Map([['a.one', 'Allow it.']]), where: 'example.org' };
    const xml = renderJunit(summary);
    assert.equal(xml.match(/<testcase /g)?.length, 3);
    assert.match(xml, /tests="3" failures="1" errors="0" skipped="1"/);
    assert.match(xml, /<failure message="blocked &lt;edge&gt; &amp; &quot;more&quot;">/);
    assert.match(xml, /<skipped message="inconclusive"\/>/);
    const md = renderMarkdown(summary);
    assert.ok(md.includes('| `a.one` | access | ❌ fail | blocked \\<edge\\> \\& \\"more\\" |'), md);
    assert.match(md, /assert `a\.one` \(error\): fail — \*\*failed\*\*/);
    assert.ok(md.includes('[Full report](<https://svc.example/r/x>)'), md);
  });

  // What a hostile site can put in a title, a vendor page or a robots.txt line.
  const HOSTILE = 'Blocked\x1b[2J\x1b[32m Gate: passed\x1b[0m\n::error::forged\u202eDCBA\u009b31m\u0007 [x](https://evil.example) <img src=x> | `tick` _em_';

  test('site text loses every control: ANSI escapes whole, C0/C1, bidi overrides; line breaks become spaces', () => {
    const clean = cleanText(HOSTILE);
    assert.equal(clean, 'Blocked Gate: passed ::error::forgedDCBA [x](https://evil.example) <img src=x> | `tick` _em_');
    assert.doesNotMatch(clean, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const deep = cleanDeep({ a: [HOSTILE], m: new Map([['k', { b: HOSTILE }]]), n: 3, z: null });
    assert.equal(deep.a[0], clean);
    assert.equal(deep.m.get('k')?.b, clean);
    assert.deepEqual([deep.n, deep.z], [3, null]);
  });

  test('Markdown escapes site text so it cannot link, embed, emphasise or break a table; JUnit escapes it as XML', () => {
    assert.equal(markdownText('[x](https://e.example) <b> | `t` _e_ *s* # h'), '\\[x\\]\\(https\\:\\/\\/e\\.example\\) \\<b\\> \\| \\`t\\` \\_e\\_ \\*s\\* \\# h');
    const hostileReport = { ...report, checks: [{ id: 'a.one', category: 'access', status: 'fail', detail: HOSTILE }] };
    const g = decideCheckGates(hostileReport.checks, [], null);
    const summary = { report: hostileReport as never, gate: { minScore: null, result: 'absent' as const, score: 80, exitCode: 0 as const, message: '' }, checks: g, exitCode: 0, fixes: new Map<string, string>(), where: 'example.org' };
    const md = renderMarkdown(summary);
    const row = md.split('\n').find((l) => l.startsWith('| `a.one`'))!;
    // Exactly the four cells: no pipe from the site opened a fifth.
    assert.equal(row.split(/(?<!\\)\|/).length, 6, row);
    assert.doesNotMatch(md, /\x1b|\u202e|\n::error::/);
    assert.doesNotMatch(md, /[^\\]\[x\]\(|[^\\]<img/);
    const xml = renderJunit(summary);
    assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202e]/);
    assert.ok(xml.includes('&lt;img src=x&gt;'), xml);
    assert.doesNotMatch(xml, /<img/);
  });
});

describe('CLI report text', () => {
  const view = (checks: Array<{ id: string; status: string }>) => ({
    mode: 'local' as const, localOrigin: 'http://localhost:8080', fixes: new Map<string, string>(), vantage: null, vantageProblem: null, upload: null,
    gate: { minScore: null, result: 'absent' as const, score: null, exitCode: 0 as const, message: '' },
    report: {
      domain: 'localhost', scannedAt: '2026-11-24T00:00:00.000Z', headline: 'unknown', confidence: 'low', confidenceNote: 'n', reasons: [], matrix: [],
      score: { value: null, decidedCount: 0, minDecided: 8, categories: {}, rubricVersion: 'rubric-v1.1' }, profile: null,
      checks: checks.map((c) => ({ ...c, category: 'access', weight: 1 })),
    } as unknown as ScanReport,
  });
  const plain = makeStyle(false);
  test('the dead llms.txt links the next rubric found are shown under "Next rubric", in the terminal and in Markdown', () => {
    const detail = '5 of 8 links resolve (62 %); 3 dead: /docs/broken (HTTP 503), /docs/old (HTTP 404), /docs/removed (HTTP 410)';
    const v = view([{ id: 'discovery.llms-txt-links', status: 'pass' }]);
    const preview = {
      rubricVersion: 'rubric-v1.2-preview', score: { value: 70, decidedCount: 9, minDecided: 8, categories: {}, rubricVersion: 'rubric-v1.2-preview' },
      checks: [{ id: 'discovery.llms-txt-links', category: 'discovery', weight: 2, status: 'fail', credit: 0.499, detail }, { id: 'discovery.ard', category: 'discovery', weight: 2, status: 'fail', detail: 'an added check' }],
      changes: [{ checkId: 'discovery.llms-txt-links', change: 'revised', weightBefore: 2, weightAfter: 2, note: 'llms.txt links resolve: follows up to 10' }, { checkId: 'discovery.ard', change: 'added', weightBefore: null, weightAfter: 2, note: 'ARD' }],
    };
    const report = { ...v.report, preview } as unknown as ScanReport;
    const text = renderHuman({ ...v, report }, plain);
    assert.ok(text.includes(`Next rubric: 70/100`), text);
    assert.ok(text.includes(`  ! discovery.llms-txt-links (judged anew by the next rubric) — ${detail}`), text);
    assert.doesNotMatch(text, /discovery\.ard/, 'only checks the next rubric measures anew, not every added one');
    const g = decideCheckGates(report.checks, [], null);
    const md = renderMarkdown({ report, gate: v.gate, checks: g, exitCode: 0, fixes: new Map<string, string>(), where: 'example.org' });
    // Site text in Markdown is escaped (src/cli/formats.ts cell), so the paths read \/docs\/old.
    assert.ok(md.includes('- `discovery.llms-txt-links` (judged anew by the next rubric): 5 of 8 links resolve \\(62 \\%\\)\\; 3 dead\\: \\/docs\\/broken \\(HTTP 503\\)'), md);
  });

  test('a failing check shows the fix of the platform that served the page first, then the generic fix on one short line; the robots.txt patch keeps its lines', () => {
    const v = view([{ id: 'access.user-agents', status: 'fail' }]);
    const hostile = '\u001b[2J::set-output name=x::pwned';
    const report = cleanDeep({
      ...v.report,
      platforms: [{ id: 'cloudflare', name: 'Cloudflare', role: 'edge', evidence: 'header cf-ray: 1 on the home page' }],
      platformFixes: [{ checkId: 'access.user-agents', platform: 'cloudflare', platformName: 'Cloudflare', setting: 'AI Crawl Control → Crawlers', text: 'Set ChatGPT-User to Allow.', docUrl: 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/', snippet: '(http.user_agent contains "ChatGPT-User")\nor more' }],
      robotsPatch: { reason: 'The edge turns away ChatGPT-User, which robots.txt allows.', unifiedDiff: `--- robots.txt\tas served\n+++ robots.txt\tproposed\n@@ -1,2 +1,5 @@\n User-agent: *\n Allow: /\n+# ${hostile}\n+User-agent: ChatGPT-User\n+Disallow: /\n`, agents: [], edgeAlternative: { platform: 'cloudflare', docUrl: null, text: 'Or keep robots.txt and change Cloudflare instead.' } },
    } as unknown as ScanReport);
    const fixes = new Map([['access.user-agents', 'Allow the user-fetch agents at the edge.']]);
    const text = renderHuman({ ...v, report, fixes }, plain);
    const at = (t: string) => text.indexOf(t);
    assert.ok(at('    fix on Cloudflare: AI Crawl Control → Crawlers. Set ChatGPT-User to Allow.') > 0, text);
    assert.ok(at('      docs: https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/') > at('fix on Cloudflare'), text);
    assert.ok(at('      | or more') > 0, 'the snippet keeps its lines, each prefixed');
    assert.ok(at('    generic fix: Allow the user-fetch agents at the edge.') > at('      | or more'), 'the generic fix last, on one line');
    assert.match(text, /Served by Cloudflare \(edge\)/);
    assert.ok(at('    +User-agent: ChatGPT-User') > at('robots.txt that says what the site does:'), text);
    assert.doesNotMatch(text, /\u001b/, 'no escape sequence from the site survives');
    assert.ok(text.split('\n').every((l) => !l.startsWith('::')), 'no line starts a workflow command');
    const md = renderMarkdown({ report, gate: v.gate, checks: decideCheckGates(report.checks, [], null), exitCode: 1, fixes, where: 'example.org' });
    assert.ok(md.includes('- `access.user-agents`: **fix on Cloudflare:** AI Crawl Control → Crawlers. Set ChatGPT\\-User to Allow\\. [docs](<https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/>)'), md);
    assert.ok(md.includes('  - generic fix: Allow the user\\-fetch agents at the edge\\.'), md);
    assert.match(md, /```diff\n--- robots\.txt as served\n/);
    const xml = renderJunit({ report, gate: v.gate, checks: decideCheckGates(report.checks, [], null), exitCode: 1, fixes, where: 'example.org' });
    assert.ok(xml.indexOf('fix on Cloudflare') < xml.indexOf('generic fix: Allow'), xml);
  });

  test('a scan that decided no check says no failure is known, never that none failed', () => {
    const text = renderHuman(view([{ id: 'a.one', status: 'inconclusive' }, { id: 'b.two', status: 'skipped' }]), plain);
    assert.match(text, /Failing checks: none known, no check could be decided/);
    assert.match(renderHuman(view([{ id: 'a.one', status: 'pass' }, { id: 'b.two', status: 'inconclusive' }]), plain), /Failing checks: none\n/);
  });

  test('a hosted scan of an internationalised domain names it as its owner writes it, with its DNS spelling beside it', () => {
    const hosted = (domain: string) => {
      const v = view([{ id: 'a.one', status: 'pass' }]);
      return renderHuman({ ...v, mode: 'hosted', localOrigin: undefined, report: { ...v.report, domain } }, plain);
    };
    assert.match(hosted('xn--bcher-kva.de'), /^agent-readiness · bücher\.de \(xn--bcher-kva\.de\) · scanned /);
    // A look-alike (Cyrillic а) never appears without its true spelling.
    assert.match(hosted('xn--pple-43d.com'), /^agent-readiness · аpple\.com \(xn--pple-43d\.com\) · /);
    assert.match(hosted('example.org'), /^agent-readiness · example\.org · scanned /);
  });
});

describe('CLI proxy selection (HTTPS_PROXY / HTTP_PROXY / NO_PROXY)', () => {
  const env = { HTTPS_PROXY: 'http://user:secret@proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:8080' };
  test('https uses HTTPS_PROXY, http uses HTTP_PROXY, https falls back to HTTP_PROXY, lower case wins', () => {
    assert.equal(proxyFor('https://example.org/', env), env.HTTPS_PROXY);
    assert.equal(proxyFor('http://example.org/', env), env.HTTP_PROXY);
    assert.equal(proxyFor('https://example.org/', { HTTP_PROXY: 'http://plain.corp:8080' }), 'http://plain.corp:8080');
    assert.equal(proxyFor('https://example.org/', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }), 'http://lower:1');
    assert.equal(proxyFor('https://example.org/', {}), undefined);
  });

  test('NO_PROXY: *, exact names, suffixes, *.subdomains and ports', () => {
    assert.equal(bypassesProxy('example.org', 443, { NO_PROXY: '*' }), true);
    assert.equal(bypassesProxy('example.org', 443, { NO_PROXY: 'other.org, example.org' }), true);
    assert.equal(bypassesProxy('www.example.org', 443, { NO_PROXY: '.example.org' }), true);
    assert.equal(bypassesProxy('www.example.org', 443, { NO_PROXY: 'example.org' }), true);
    assert.equal(bypassesProxy('example.org', 443, { NO_PROXY: '*.example.org' }), false);
    assert.equal(bypassesProxy('a.example.org', 443, { NO_PROXY: '*.example.org' }), true);
    assert.equal(bypassesProxy('notexample.org', 443, { NO_PROXY: 'example.org' }), false);
    assert.equal(bypassesProxy('example.org', 443, { NO_PROXY: 'example.org:8443' }), false);
    assert.equal(bypassesProxy('example.org', 8443, { no_proxy: 'example.org:8443' }), true);
    assert.equal(proxyFor('https://example.org/', { ...env, NO_PROXY: 'example.org' }), undefined);
  });

  test('a proxy given as host:port means an http proxy, as in curl', () => {
    assert.equal(proxyFor('https://example.org/', { HTTPS_PROXY: 'proxy.corp:3128' }), 'http://proxy.corp:3128');
  });

  test('messages never show proxy credentials', () => {
    assert.equal(describeProxy(env.HTTPS_PROXY), 'http://proxy.corp:3128');
  });
});

describe('CLI gate and exit codes', () => {
  const report = (headline: string, value: number | null) => ({ headline, score: { value } });
  test('absent, passed, failed', () => {
    assert.equal(decideGate(report('open', 40), undefined).exitCode, 0);
    assert.equal(decideGate(report('open', 70), 70).exitCode, 0);
    assert.equal(decideGate(report('open', 69), 70).exitCode, 1);
  });
  test('no score or an unknown headline under --min-score is "could not test" (2), never a failing site', () => {
    assert.deepEqual([decideGate(report('open', null), 10).exitCode, decideGate(report('open', null), 10).result], [2, 'could-not-test']);
    assert.equal(decideGate(report('unknown', 90), 10).exitCode, 2);
    assert.equal(decideGate(report('unknown', null), undefined).exitCode, 0);
  });
});

describe('CLI difference sentences', () => {
  const row = (ua: string, a: string, b: string) => ({ ua, intent: 'training', robotsSays: 'allowed', edgeDoes: { networkA: a, networkB: b }, httpStatus: { networkA: 200, networkB: 200 }, verdict: 'pass', measurement: 'measured', attributedVendors: [], notes: [] }) as unknown as ScanReport['matrix'][number];
  test('your network passing where the cloud is denied, and the reverse, grouped by agent', () => {
    const matrix = [row('GPTBot', 'challenge', 'challenge'), row('ClaudeBot', 'challenge', 'block'), row('CCBot', 'pass', 'pass'), row('Bytespider', 'pass', 'unprobed')];
    const lines = describeDifferences(matrix, { 'control:browser': 'pass', 'grid:GPTBot': 'pass', 'grid:ClaudeBot': 'pass', 'grid:CCBot': 'pass', 'grid:Bytespider': 'block' });
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^GPTBot: your network passes where cloud networks are challenged\./);
    assert.match(lines[1]!, /^ClaudeBot: your network passes where cloud networks are challenged or blocked\./);
    assert.match(lines[2]!, /^Bytespider: your network is blocked where networkA passes\./);
  });
  test('long groups are shortened: every agent, or six names and a count', () => {
    const many = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8'];
    const user = Object.fromEntries(many.map((ua) => [`grid:${ua}`, 'pass']));
    assert.match(describeDifferences(many.map((ua) => row(ua, 'block', 'block')), user)[0]!, /^All 8 agents: your network passes where cloud networks are blocked\./);
    const mixed = [...many.map((ua) => row(ua, 'block', 'block')), row('Z', 'pass', 'pass')];
    assert.match(describeDifferences(mixed, { ...user, 'grid:Z': 'pass' })[0]!, /^A1, A2, A3, A4, A5, A6 and 2 more: your network passes/);
  });
  test('the same picture says so; a denied control on your side is called out', () => {
    assert.deepEqual(describeDifferences([row('CCBot', 'pass', 'pass')], { 'control:browser': 'pass', 'grid:CCBot': 'pass' }), ['Your network saw what the cloud networks saw.']);
    assert.deepEqual(describeDifferences([row('CCBot', 'block', 'block')], { 'control:browser': 'challenge', 'grid:CCBot': 'pass' }), ['The browser-like control request from your network was challenged, so your network\'s agent results cannot be compared.']);
    assert.match(describeDifferences([], { 'control:browser': 'origin-error' })[0]!, /did not get the page \(origin-error\)/);
  });
  test('a private answer from your resolver is explained, not compared', () => {
    assert.match(describeDifferences([row('CCBot', 'block', 'block')], { 'control:browser': 'transport-error', 'grid:CCBot': 'transport-error' }, 'GUARD_REFUSED')[0]!, /resolves this site to a private or reserved address/);
    // The caller's proxy refused the tunnel: said as the proxy's doing, with how to give credentials for a 407.
    const refused = { 'control:browser': 'transport-error', 'grid:CCBot': 'transport-error' } as const;
    assert.match(describeDifferences([row('CCBot', 'pass', 'pass')], refused, 'PROXY', 'Proxy response (407) !== 200 when HTTP Tunneling')[0]!, /^Your proxy asked for credentials \(407\).*HTTPS_PROXY=http:\/\/user:password@host:port/);
    assert.deepEqual(describeDifferences([row('CCBot', 'pass', 'pass')], refused, 'PROXY', 'Proxy response (502) !== 200 when HTTP Tunneling'), ['Your proxy opened no tunnel to the site (Proxy response (502) !== 200 when HTTP Tunneling), so your network was not measured.']);
  });
  test('one cloud network disagreeing is named, not generalised', () => {
    const lines = describeDifferences([row('GPTBot', 'pass', 'block'), row('CCBot', 'block', 'block')], { 'control:browser': 'pass', 'grid:GPTBot': 'pass', 'grid:CCBot': 'challenge' });
    assert.deepEqual(lines.map((l) => l.split('. ')[0]), ['GPTBot: your network passes where networkB is blocked']);
    const reverse = describeDifferences([row('GPTBot', 'pass', 'block')], { 'control:browser': 'pass', 'grid:GPTBot': 'challenge' });
    assert.match(reverse[0]!, /^GPTBot: your network is challenged where networkA passes\./);
  });
});

describe('CLI upload decision', () => {
  const base = { scanId: '00000000-0000-4000-8000-000000000000', domain: 'example.org' } as ScanReport;
  test('a token means upload; otherwise the reason names ephemeral, coalesced or unarchived', () => {
    assert.equal(whyNoUpload({ ...base, cliUploadToken: 't' }), null);
    assert.match(whyNoUpload({ ...base, ephemeral: true })!, /temporary tunnel host/);
    assert.match(whyNoUpload({ ...base, coalesced: true, ageMs: 12_400 })!, /finished 12 s ago.*--fresh/);
    assert.match(whyNoUpload(base)!, /could not be archived/);
  });
});

describe('CLI colour', () => {
  test('only on a terminal and only without NO_COLOR', () => {
    assert.equal(colourEnabled({ isTTY: true }, {}), true);
    assert.equal(colourEnabled({ isTTY: true }, { NO_COLOR: '1' }), false);
    assert.equal(colourEnabled({ isTTY: false }, {}), false);
    assert.equal(colourEnabled({ isTTY: true }, { NO_COLOR: '' }), true);
  });
});

describe('CLI progress', () => {
  const sink = (isTTY: boolean) => {
    const writes: string[] = [];
    return { isTTY, writes, write: (chunk: string) => (writes.push(chunk), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean; writes: string[] };
  };
  test('a terminal gets elapsed time and the phase, redrawn in place, and a clean line at the end', () => {
    const s = sink(true);
    const p = startProgress(s, true);
    p.phase('scanning example.org');
    p.stop();
    assert.match(s.writes[0]!, /^\r\x1b\[K. \d+\.\ds  scanning example\.org$/);
    assert.equal(s.writes.at(-1), '\r\x1b[K');
  });
  test('a pipe or a log file gets nothing', () => {
    const s = sink(false);
    const p = startProgress(s, true);
    p.phase('scanning');
    p.stop();
    assert.deepEqual(s.writes, []);
  });
  test('plain style adds no escape codes', () => {
    assert.equal(makeStyle(false).red('x'), 'x');
    assert.equal(makeStyle(true).red('x'), '\x1b[31mx\x1b[39m');
  });
});

describe('--header and AGENT_READINESS_HEADERS (an authenticated preview)', () => {
  const SECRET = 'p4ss-w0rd-xyz';
  test('flags and the variable\'s lines become headers in order; blank lines are skipped', () => {
    const r = parseExtraHeaders(['x-vercel-protection-bypass: a:b c'], `\nAuthorization: Bearer ${SECRET}\n\n`);
    assert.deepEqual(r, { ok: true, headers: [['x-vercel-protection-bypass', 'a:b c'], ['Authorization', `Bearer ${SECRET}`]] });
  });
  test('every malformed or forbidden header is refused, naming where it came from and never its value', () => {
    const cases: Array<[string[], string | undefined, RegExp]> = [
      [[`no colon ${SECRET}`], undefined, /--header #1 must be 'Name: value' \(the value is not shown\)/],
      [[`bad name: ${SECRET}`], undefined, /not a valid header name/],
      [[`Host: ${SECRET}`], undefined, /Host is set by the HTTP client/],
      [[`User-Agent: ${SECRET}`], undefined, /part of how each agent arrives/],
      [[`Sec-Fetch-Site: ${SECRET}`], undefined, /part of how each agent arrives/],
      [['x-a:'], undefined, /needs a value/],
      [[`x-a: ${SECRET}`], `X-A: ${SECRET}`, /AGENT_READINESS_HEADERS line 1: X-A is given twice/],
      [[], `x-b: ${SECRET}\u0007`, /AGENT_READINESS_HEADERS line 1: x-b needs a value on one line of printable characters/],
    ];
    for (const [flags, env, want] of cases) {
      const r = parseExtraHeaders(flags, env);
      assert.equal(r.ok, false, `${flags.join('|')} ${env}`);
      if (!r.ok) {
        assert.match(r.message, want);
        assert.ok(!r.message.includes(SECRET), `the message never repeats the value: ${r.message}`);
      }
    }
  });
  test('a vercel.app, netlify.app or pages.dev host answering X-Robots-Tag: noindex is a preview deployment; a noindex meta tag or another host is not', () => {
    const noindex = [{ id: 'policy.not-noindexed', status: 'fail', detail: 'X-Robots-Tag: noindex' }];
    assert.match(previewDeploymentNotice({ domain: 'shop-git-x.vercel.app', checks: noindex }) ?? '', /preview deployment \(a vercel\.app host answering X-Robots-Tag: noindex\)/);
    assert.ok(previewDeploymentNotice({ domain: 'deploy-preview-3--shop.netlify.app', checks: noindex }));
    assert.ok(previewDeploymentNotice({ domain: 'abc123.shop.pages.dev', checks: noindex }));
    assert.equal(previewDeploymentNotice({ domain: 'www.example.com', checks: noindex }), null);
    assert.equal(previewDeploymentNotice({ domain: 'shop.vercel.app', checks: [{ id: 'policy.not-noindexed', status: 'pass', detail: 'no noindex on the home page' }] }), null);
    assert.equal(previewDeploymentNotice({ domain: 'shop.vercel.app', checks: [{ id: 'policy.not-noindexed', status: 'fail', detail: '<meta name="robots" content="noindex">' }] }), null);
  });
  test('the wrapper hands the egress its origin as URL.origin spells it, and nothing when no header was given', async () => {
    const seen: unknown[] = [];
    const inner: Egress = { name: 'x', configured: true, fetch: async (req) => { seen.push(req); return { ok: false, errorCode: 'ABORTED', message: '', redirects: [], timingMs: 0 }; }, release: () => undefined, close: async () => undefined };
    await withOriginHeaders(inner, 'https://localhost:443', [['x-a', '1']]).fetch({ url: 'https://localhost/', timeoutMs: 1, maxBodyBytes: 1, maxRedirects: 0 });
    assert.deepEqual((seen[0] as { originHeaders: unknown }).originHeaders, { origin: 'https://localhost', headers: { 'x-a': '1' } });
    assert.equal(withOriginHeaders(inner, 'https://a.example', []), inner);
  });
});
