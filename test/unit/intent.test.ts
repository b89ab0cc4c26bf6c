// Grading by intent, the pure parts: the CLI's --intent words, and the report page's
// "What you asked for" section (placed before the grid, every value escaped).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli } from '../../src/cli/args.ts';
import type { ScanReport } from '../../src/cli/api.ts';
import { renderHuman } from '../../src/cli/render.ts';
import { makeStyle } from '../../src/cli/style.ts';
import { parseIntent } from '../../src/scanner/intent-request.ts';
import { renderReportPage } from '../../src/report/page.ts';
import { intentSection } from '../../src/report/intent.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { fullCatalog, fullReport } from '../report/fixtures.ts';

const hosted = ['scan', 'example.com', '--name', 'Ada Lovelace', '--email', 'ada@example.com', '--api', 'https://api.example'];

describe('--intent', () => {
  const good: ReadonlyArray<[string, object]> = [
    ['training=block,search=allow', { training: 'block', search: 'allow' }],
    [' user-fetch=charge , archive=allow ', { 'user-fetch': 'charge', archive: 'allow' }],
    ['training=charge', { training: 'charge' }],
  ];
  for (const [text, intent] of good) {
    test(`"${text}" is read as ${JSON.stringify(intent)} and sent with a hosted scan`, () => {
      assert.deepEqual(parseIntent(text), { ok: true, intent });
      const p = parseCli([...hosted, '--intent', text], {});
      assert.equal(p.kind, 'scan');
      assert.deepEqual(p.kind === 'scan' ? p.options.intent : null, intent);
    });
  }
  const bad: ReadonlyArray<[string, RegExp]> = [
    ['training=maybe', /the wish for training must be one of allow, block, charge, not "maybe"/],
    ['robots=block', /"robots=block" must be <role>=<wish> with a role among training, search, user-fetch, archive/],
    ['training', /"training" must be <role>=<wish>/],
    ['training=block,training=allow', /names training twice/],
    [',', /--intent takes role=wish pairs/],
  ];
  for (const [text, message] of bad) {
    test(`"${text}" is a usage error that says why`, () => {
      const p = parseCli([...hosted, '--intent', text], {});
      assert.equal(p.kind, 'usage-error');
      assert.match(p.kind === 'usage-error' ? p.message : '', message);
    });
  }
  test('a local scan takes --intent too, and no --intent leaves the option out', () => {
    const local = parseCli(['scan', 'localhost:3000', '--intent', 'training=block'], {});
    assert.deepEqual(local.kind === 'scan' ? local.options.intent : null, { training: 'block' });
    const none = parseCli(hosted, {});
    assert.equal(none.kind === 'scan' ? 'intent' in none.options : true, false);
  });
});

describe('What you asked for, on the report page', () => {
  const hostile = '<img src=x onerror=alert(1)>';
  const intent: NonNullable<ScanReportBody['intent']> = {
    roles: [
      { role: 'training', wanted: 'block', robotsSays: 'block', edgeDoes: 'block', asIntended: true, decidedAgents: ['GPTBot'], missed: [], fix: null },
      { role: 'archive', wanted: 'block', robotsSays: 'allow', edgeDoes: 'allow', asIntended: false, decidedAgents: ['CCBot'], missed: ['CCBot'], fix: { text: `Block CCBot ${hostile}`, robotsTxt: `User-agent: CCBot\nDisallow: /${hostile}`, platform: 'cloudflare', docUrl: 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/' } },
      { role: 'user-fetch', wanted: 'charge', robotsSays: 'unknown', edgeDoes: 'undecided', asIntended: null, decidedAgents: [], missed: [], fix: null },
    ],
    asIntended: { met: 1, decided: 2 },
  };
  const page = (i?: typeof intent) => {
    const f = fullReport();
    return renderReportPage({ report: { ...f.report, scanId: '11111111-2222-4333-8444-555555555555', outreachEligible: false, ...(i ? { intent: i } : {}) }, evidence: f.evidence, cliVantage: null, catalog: fullCatalog });
  };

  test('comes right before the agent grid, with a verdict per role and the fix', () => {
    const html = page(intent);
    const at = html.indexOf('id="intent"');
    assert.ok(at > 0 && at < html.indexOf('id="agents"') && at > html.indexOf('id="fix"'), 'after Fix first, before the grid');
    assert.match(html, /1 of 2 decided roles get what you asked for/);
    assert.match(html, /<th scope="row">Training crawlers<\/th><td>turned away<\/td><td>disallows<\/td><td>turns away<\/td><td><span class="chip ok">as you asked<\/span>/);
    assert.match(html, /<th scope="row">Archive crawlers<\/th>.*<span class="chip warn">not as you asked<\/span><br><span class="small muted">not for CCBot<\/span>/);
    assert.match(html, /<th scope="row">Fetchers acting for a user<\/th><td>charged \(HTTP 402\)<\/td><td>could not be read<\/td><td>not decided<\/td><td><span class="chip none">not decided<\/span>/);
  });

  test('escapes every value a report carries', () => {
    const html = intentSection({ ...fullReport().report, scanId: 'x', outreachEligible: false, intent } as ScanReportBody).toString();
    assert.doesNotMatch(html, /<img src=x/);
    assert.match(html, /Block CCBot &lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /Disallow: \/&lt;img src=x/);
  });

  test('a report without an intent (every report made before it, or scanned without one) shows no section', () => {
    assert.doesNotMatch(page(), /id="intent"/);
  });
});

describe('What you asked for, in the CLI\'s text', () => {
  const base = {
    mode: 'local' as const, localOrigin: 'http://localhost:8080', fixes: new Map<string, string>(), vantage: null, vantageProblem: null, upload: null,
    gate: { minScore: null, result: 'absent' as const, score: null, exitCode: 0 as const, message: '' },
  };
  const report = (intent?: unknown) => ({
    domain: 'localhost', scannedAt: '2026-11-24T00:00:00.000Z', headline: 'open', confidence: 'low', confidenceNote: 'n', reasons: [], matrix: [], checks: [],
    score: { value: null, decidedCount: 0, minDecided: 8, categories: {}, rubricVersion: 'rubric-v1.1' }, profile: null, ...(intent ? { intent } : {}),
  }) as unknown as ScanReport;

  test('each role with its verdict and, where not as asked, the fix and its robots.txt lines, before the agent grid', () => {
    const text = renderHuman({ ...base, report: report({
      roles: [
        { role: 'training', wanted: 'block', robotsSays: 'block', edgeDoes: 'block', asIntended: true, decidedAgents: ['GPTBot'], missed: [], fix: null },
        { role: 'archive', wanted: 'block', robotsSays: 'allow', edgeDoes: 'allow', asIntended: false, decidedAgents: ['CCBot'], missed: ['CCBot'], fix: { text: 'Turn CCBot away.', robotsTxt: 'User-agent: CCBot\nDisallow: /', platform: null, docUrl: null } },
      ],
      asIntended: { met: 1, decided: 2 },
    }) }, makeStyle(false));
    const at = text.indexOf('What you asked for: 1 of 2 decided roles as asked');
    assert.ok(at > 0 && at < text.indexOf('Agents:'), text);
    assert.ok(text.includes('  training: block — robots.txt block, edge block: as asked\n'), text);
    assert.ok(text.includes('  archive: block — robots.txt allow, edge allow: not as asked\n    Turn CCBot away.\n      User-agent: CCBot\n      Disallow: /\n'), text);
  });

  test('a report without an intent prints no such section', () => {
    assert.doesNotMatch(renderHuman({ ...base, report: report() }, makeStyle(false)), /What you asked for/);
  });
});
