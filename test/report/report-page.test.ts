// The redesigned report page, rendered from a full-size report (33 agents, every check,
// evidence with curl): its order, Fix first, the agent grid, evidence, share and history.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixesByGain } from '../../src/report/fix-first.ts';
import { renderReportPage, type ReportPageInput } from '../../src/report/page.ts';
import { inlineCode } from '../../src/report/html.ts';
import { weightedPercent } from '../../src/scanner/scoring.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { fullCatalog, fullReport } from './fixtures.ts';

const ID = '11111111-2222-4333-8444-555555555555';
const URL_ = `https://agent-readiness.test/r/${ID}`;

function input(over: Partial<ReportPageInput> = {}): ReportPageInput {
  const f = fullReport();
  const report: ScanReportBody = { ...f.report, scanId: ID, outreachEligible: false, reportUrl: URL_ };
  return {
    report, evidence: f.evidence, cliVantage: f.cliVantage, catalog: fullCatalog,
    history: [{ scannedAt: '2026-10-01T10:00:00.000Z', headline: 'agent-hostile', score: 41 }, { scannedAt: '2026-11-01T10:00:00.000Z', headline: 'unknown', score: null }],
    ...over,
  };
}

const textOf = (html: string) => html.replace(/<[^>]+>/g, '');

describe('report page', () => {
  test('the same report renders to the same bytes, also after the JSON round trip of the archive', () => {
    const a = input();
    const b = JSON.parse(JSON.stringify(a)) as ReportPageInput;
    b.catalog = fullCatalog;
    assert.equal(renderReportPage(a), renderReportPage(a));
    assert.equal(renderReportPage(b), renderReportPage(a));
  });

  test('sections come in the order a site owner needs them: headline and reasons, score, fix first, agents, evidence, share, history', () => {
    const page = renderReportPage(input());
    const at = ['id="why"', 'id="score"', 'id="fix"', 'id="agents"', 'id="checks"', 'id="evidence"', 'id="share"', 'id="history"', 'id="method"'].map((s) => page.indexOf(s));
    assert.ok(at.every((i) => i > 0), `every section present: ${at}`);
    assert.deepEqual([...at].sort((x, y) => x - y), at);
    for (const cat of ['access', 'policy', 'discovery', 'content', 'trust']) assert.match(page, new RegExp(`<li>${cat} <strong>`));
  });

  test('Fix first lists failing and partly credited checks by the points each adds, computed with the rubric formula', () => {
    const { report } = input();
    const fixes = fixesByGain(report.checks);
    const thousandths = (c: (typeof report.checks)[number]) => (c.status === 'pass' ? (c.credit !== undefined ? c.credit * 1000 : 1000) : 0);
    const now = weightedPercent(report.checks.map((c) => ({ result: c, thousandths: thousandths(c) })))!;
    assert.equal(now, report.score.value, 'the fixture score agrees with its checks');
    assert.ok(fixes.length >= 5);
    assert.ok(fixes.some((f) => f.check.status === 'pass' && f.check.credit === 0.5), 'partial credit is a fix too');
    for (const f of fixes) {
      const after = weightedPercent(report.checks.map((c) => ({ result: c.id === f.check.id ? { ...c, status: 'pass' as const } : c, thousandths: c.id === f.check.id ? 1000 : thousandths(c) })))!;
      assert.equal(f.gain, after - now, f.check.id);
    }
    for (let i = 1; i < fixes.length; i++) assert.ok(fixes[i - 1]!.gain >= fixes[i]!.gain, 'largest gain first');
    const page = renderReportPage(input());
    const fixBlock = page.slice(page.indexOf('id="fix"'), page.indexOf('id="agents"'));
    const order = fixes.map((f) => fixBlock.indexOf(`<code>${f.check.id}</code>`));
    assert.ok(order.every((i) => i > 0));
    assert.deepEqual([...order].sort((x, y) => x - y), order, 'rendered in gain order');
    assert.ok(fixBlock.includes(`+${fixes[0]!.gain}`));
    const escaped = (t: string) => t.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const generic = fixes.find((f) => !report.platformFixes?.some((p) => p.checkId === f.check.id))!;
    assert.ok(fixBlock.includes(`<strong>Fix:</strong> ${escaped(fullCatalog(generic.check.id)!.fix)}`), 'a check no platform has a fix for shows the generic fix');
  });

  test('Fix first shows the fix of the platform that served the page first, with its documentation link, and folds the generic fix', () => {
    const { report } = input();
    const page = renderReportPage(input());
    const fixBlock = page.slice(page.indexOf('id="fix"'), page.indexOf('id="agents"'));
    assert.match(fixBlock, /Served by <strong>Cloudflare<\/strong>/);
    const platform = report.platformFixes!.find((f) => f.checkId === 'access.search-agents')!;
    assert.match(platform.setting, /AI Crawl Control/);
    const item = fixBlock.slice(fixBlock.indexOf('<code>access.search-agents</code>'));
    const li = item.slice(0, item.indexOf('</li>'));
    const at = (text: string) => li.indexOf(text);
    assert.ok(at('Fix on Cloudflare:') > 0 && at('href="https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/"') > at('Fix on Cloudflare:'), 'the platform fix and its documentation link');
    assert.ok(at('<summary>Generic fix</summary>') > at('Fix on Cloudflare:'), 'the generic fix comes after, folded');
    assert.ok(li.includes('(http.user_agent contains &quot;'), 'the rule expression to paste');
  });

  test('the robots.txt patch is shown as a unified diff with the agents it changes and the edge rule to change instead', () => {
    const page = renderReportPage(input());
    const block = page.slice(page.indexOf('id="robots-patch"'), page.indexOf('id="agents"'));
    assert.match(block, /<span class="da">\+User-agent: ChatGPT-User<\/span>/);
    assert.match(block, /The other way:<\/strong> Or keep robots.txt and change Cloudflare instead/);
    assert.match(textOf(block), /ChatGPT-User\s*turns it away/);
  });

  test('Fix first claims nothing is wrong only when some check decided; a scan that decided none says no fix can be suggested', () => {
    const fixBlock = (page: string) => textOf(page.slice(page.indexOf('id="fix"'), page.indexOf('id="agents"')));
    const base = input();
    const undecided = base.report.checks.map((c) => ({ ...c, status: 'inconclusive' as const, credit: undefined }));
    const none = fixBlock(renderReportPage({ ...base, report: { ...base.report, checks: undecided } }));
    assert.doesNotMatch(none, /Nothing to fix|passed/);
    assert.match(none, /No fix to suggest: no check could be decided in this scan/);
    const allPass = base.report.checks.map((c) => (c.status === 'pass' || c.status === 'fail' ? { ...c, status: 'pass' as const, credit: undefined } : c));
    assert.match(fixBlock(renderReportPage({ ...base, report: { ...base.report, checks: allPass } })), /Nothing to fix: every check that decided passed with full credit\./);
  });

  test('the confidence note is labelled once: the API\'s leading level word is not repeated after the page\'s label', () => {
    const base = input();
    const page = renderReportPage({ ...base, report: { ...base.report, confidence: 'low', confidenceNote: 'Low: the two networks disagree for GPTBot.' } });
    assert.match(page, /<strong>Confidence low:<\/strong> the two networks disagree for GPTBot\.<\/p>/);
    // A note without the prefix is shown whole.
    assert.match(renderReportPage(base), /<strong>Confidence high:<\/strong> Both networks answered, /);
  });

  test('an internationalised domain is headed as its owner writes it, its DNS spelling always beside it; an ASCII one once', () => {
    const base = input();
    const idn = renderReportPage({ ...base, report: { ...base.report, domain: 'xn--bcher-kva.de' } });
    assert.match(idn, /<h1>bücher\.de<\/h1><p class="muted small">As DNS spells it: <code>xn--bcher-kva\.de<\/code><\/p>/);
    assert.match(idn, /<title>bücher\.de: /);
    // The prose below names it the same way; URLs and embed snippets keep the DNS spelling.
    assert.match(idn, /scan of bücher\.de \(xn--bcher-kva\.de\)/);
    assert.match(idn, /\/badge\/xn--bcher-kva\.de\.svg/);
    assert.doesNotMatch(idn, /scan of xn--bcher-kva\.de/);
    // A look-alike (Cyrillic а in "аpple.com") is never shown without its true spelling.
    const spoof = renderReportPage({ ...base, report: { ...base.report, domain: 'xn--pple-43d.com' } });
    assert.match(spoof, /<code>xn--pple-43d\.com<\/code>/);
    const ascii = renderReportPage(base);
    assert.doesNotMatch(ascii, /As DNS spells it/);
    assert.match(ascii, new RegExp(`<h1>${base.report.domain.replace(/\./g, '\\.')}</h1>`));
  });

  test('the agent grid holds every roster agent once, grouped by intent, with icon and word per cell and a folded verdict per row', () => {
    const page = renderReportPage(input());
    const grid = page.slice(page.indexOf('id="agents"'), page.indexOf('id="checks"'));
    const roster = getRoster();
    assert.equal(roster.length, 33);
    assert.equal((grid.match(/<tr><th scope="row">/g) ?? []).length, 33);
    for (const a of roster) assert.ok(grid.includes(`<th scope="row">${a.token}</th>`), a.token);
    assert.equal((grid.match(/<table class="agents yours">/g) ?? []).length, 4, 'one table per intent, with the user network column');
    for (const intent of ['user-fetch', 'search', 'training', 'archive']) assert.ok(grid.includes(`(${intent}, ${roster.filter((a) => a.intent === intent).length})`), intent);
    assert.equal((grid.match(/<td class="v"><details><summary>/g) ?? []).length, 33);
    // Never colour alone: every outcome span has an icon hidden from AT and a visible word.
    const spans = grid.match(/<span class="o [a-z]+">.*?<\/span>[^<]*<\/span>/g) ?? [];
    assert.ok(spans.length > 33 * 3);
    for (const s of spans) assert.match(s, /<span class="i" aria-hidden="true">[^<]+<\/span>[A-Za-z0-9 ()-]+/);
    for (const word of ['served', 'blocked', 'challenge', 'limited', 'login', 'no answer', 'not probed', 'allowed', 'disallowed', 'partial', 'open', 'denied', 'opted out', 'unclear', 'robots only']) {
      assert.ok(textOf(grid).includes(word), word);
    }
    assert.ok(grid.includes('href="#ev-a-gridgptbot"'), 'a row links its evidence');
  });

  test('without a CLI vantage the grid has no user-network column', () => {
    const page = renderReportPage(input({ cliVantage: null }));
    assert.ok(!page.includes('class="agents yours"'));
    assert.ok(!page.includes('>Yours<'));
  });

  test('evidence is folded per probe with what was sent, what came back and the curl that repeats it', () => {
    const { evidence } = input();
    const page = renderReportPage(input());
    const ev = page.slice(page.indexOf('id="evidence"'), page.indexOf('id="share"'));
    assert.equal((ev.match(/<details class="ev">/g) ?? []).length, evidence.length);
    assert.equal((ev.match(/<div class="sides" id="ev-/g) ?? []).length, evidence.length);
    const gpt = evidence.find((e) => e.key === 'grid:GPTBot' && e.network === 'networkA')!;
    const block = ev.slice(ev.indexOf(`id="ev-${gpt.id}"`));
    assert.ok(block.includes('What we sent') && block.includes('What came back'));
    assert.ok(block.includes(gpt.curl!.replace(/'/g, '&#39;')), 'the curl line, escaped');
    assert.ok(block.includes('User-Agent: '));
  });

  test('a probe archived before request headers were recorded still renders, without a curl line', () => {
    const f = input();
    const old = f.evidence.map(({ curl: _c, requestHeaders: _h, method: _m, ...e }) => e);
    const page = renderReportPage({ ...f, evidence: old });
    assert.ok(page.includes('What we sent'));
    assert.ok(!page.includes('curl -sS'));
  });

  test('share gives the permalink, badge snippets in Markdown and HTML, and the JSON link', () => {
    const page = renderReportPage(input());
    const share = page.slice(page.indexOf('id="share"'), page.indexOf('id="history"'));
    assert.ok(share.includes(`<a href="${URL_}">${URL_}</a>`));
    assert.ok(share.includes(`[![agent-readiness of full-site.example](https://agent-readiness.test/badge/full-site.example.svg)](${URL_})`));
    assert.ok(share.includes(`&lt;a href=&quot;${URL_}&quot;&gt;&lt;img src=&quot;https://agent-readiness.test/badge/full-site.example.svg&quot;`));
    assert.ok(share.includes(`href="${URL_}?format=json"`));
    assert.ok(share.includes('<img src="/badge/full-site.example.svg"'));
  });

  test('the score names the next rubric, and its section lists every change with status, generation and why/fix', () => {
    const page = renderReportPage(input());
    const preview = fullReport().report.preview!;
    assert.ok(page.includes(`Next rubric: <strong>${preview.score.value}/100</strong>`), 'next rubric beside the score');
    const section = page.slice(page.indexOf('id="next-rubric"'), page.indexOf('id="evidence"'));
    for (const c of preview.changes) assert.ok(section.includes(`<code class="muted">${c.checkId}</code>`), c.checkId);
    assert.ok(section.includes('matched: ARD v0.91 (ard.json)'), 'the generation matched is shown');
    // A check the preview measures anew says so, with what it measures differently, and shows the preview's own detail.
    const revised = preview.changes.find((c) => c.checkId === 'discovery.llms-txt-links')!;
    const row = section.slice(section.indexOf(`<code class="muted">${revised.checkId}</code>`), section.indexOf('</tr>', section.indexOf(`<code class="muted">${revised.checkId}</code>`)));
    assert.ok(row.includes('judged anew, weight 2') && row.includes('Judged anew: follows up to 10 same-site links'), row);
    assert.ok(row.includes(preview.checks.find((c) => c.id === revised.checkId)!.detail!), row);
    assert.ok(section.includes(`/api/checks?rubric=${preview.rubricVersion}`));
    assert.ok(page.indexOf('id="next-rubric"') > page.indexOf('id="checks"'), 'after all checks');
  });

  test('history draws earlier scans and this one as an SVG chart and a table, and links to no other report', () => {
    const page = renderReportPage(input());
    const hist = page.slice(page.indexOf('id="history"'), page.indexOf('id="method"'));
    assert.match(hist, /<svg class="chart"[^>]*role="img"/);
    assert.equal((hist.match(/<circle /g) ?? []).length, 3, 'two earlier scans and this one');
    assert.ok(hist.includes('<td>41</td>') && hist.includes('no score') && hist.includes('(this report)'));
    assert.ok(!/href=/.test(hist), 'no links in the history');
    const links = [...page.matchAll(/href="([^"]*\/r\/[^"]*)"/g)].map((m) => m[1]);
    assert.ok(links.every((l) => l!.startsWith(URL_)), `only this report's own permalink: ${links.join(', ')}`);
  });

  test('the first archived scan of a domain says so instead of drawing a chart; an unarchived scan has no history or permalink', () => {
    const first = renderReportPage(input({ history: [] }));
    assert.match(first, /This is the first archived scan of full-site\.example/);
    assert.ok(!first.includes('<svg class="chart"'));
    const f = input({ history: undefined });
    const { reportUrl: _u, ...unarchived } = f.report;
    const page = renderReportPage({ ...f, report: unarchived });
    assert.ok(!page.includes('id="history"'));
    assert.match(page, /not archived, so it has no permalink/);
  });
});

test('inline code: backticked spans of a detail become <code>, and every part stays escaped', () => {
  assert.equal(inlineCode('needs `server/discover` and <b>').value, 'needs <code>server/discover</code> and &lt;b&gt;');
  assert.equal(inlineCode('`<script>`').value, '<code>&lt;script&gt;</code>');
  assert.equal(inlineCode('an odd ` tick').value, 'an odd <code> tick</code>');
});
