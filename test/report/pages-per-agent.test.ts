// The report grid shows what each agent's page was (issue 36 item 2) and soft blocks (item 3),
// escaped like every other word of the report: a page's wording comes from the scanned site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReportPage } from '../../src/report/page.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { fullCatalog, fullReport } from './fixtures.ts';

const ID = '11111111-2222-4333-8444-555555555555';

function page(): string {
  const f = fullReport();
  const report: ScanReportBody = { ...f.report, scanId: ID, outreachEligible: false, reportUrl: `https://agent-readiness.test/r/${ID}` };
  const gpt = report.matrix.find((m) => m.ua === 'GPTBot')!;
  gpt.edgeDoes = { networkA: 'pass', networkB: 'pass' };
  gpt.content = { networkA: 'different', networkB: 'reduced', differs: ['text', 'title'], agentServing: [{ network: 'networkA', header: 'x-edgeoptimize-request-id', product: 'Adobe LLM Optimizer (Optimize at Edge)' }] };
  const claude = report.matrix.find((m) => m.ua === 'ClaudeBot')!;
  claude.edgeDoes = { networkA: 'block', networkB: 'pass' };
  const marker = 'soft block: a 200 page with 40 characters of visible text instead of the browser\'s 900, a refusal (refusal "access denied" (en); no main content) <script>alert(1)</script>';
  claude.notes = [...claude.notes, `networkA: ${marker}`];
  const evidence = f.evidence.map((e) => (e.network === 'networkA' && e.key === 'grid:ClaudeBot' ? { ...e, outcome: 'block' as const, markers: [...e.markers, marker] } : e));
  return renderReportPage({ report, evidence, cliVantage: null, catalog: fullCatalog, history: [] });
}

test('the grid marks an agent\'s own or reduced page, and names the agent-serving product, in its panel', () => {
  const html = page();
  const row = html.slice(html.indexOf('<th scope="row">GPTBot</th>'), html.indexOf('</tr>', html.indexOf('<th scope="row">GPTBot</th>')));
  assert.match(row, /\(own page\)/);
  assert.match(row, /\(reduced page\)/);
  assert.match(row, /Page against the browser's: Network A different, Network B reduced \(differs in its text, title\); served with x-edgeoptimize-request-id \(Adobe LLM Optimizer \(Optimize at Edge\)\)/);
});

test('a soft block is marked in its cell, and the site\'s words in its note are escaped', () => {
  const html = page();
  const start = html.indexOf('<th scope="row">ClaudeBot</th>');
  const row = html.slice(start, html.indexOf('</tr>', start));
  assert.match(row, /\(soft block: a 200 page that refuses\)/);
  assert.ok(row.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the marker is escaped');
  assert.ok(!html.includes('<script>alert(1)</script>'), 'nothing from the page is markup');
});
