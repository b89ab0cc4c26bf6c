// The report page names who refused each agent and what it is asked to pay (issue 36 items 4, 5),
// with site-derived evidence escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReportPage } from '../../src/report/page.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { fullCatalog, fullReport } from './fixtures.ts';

const ID = '11111111-2222-4333-8444-555555555555';

function page(edit: (m: ScanReportBody['matrix']) => void): string {
  const f = fullReport();
  const report: ScanReportBody = { ...f.report, scanId: ID, outreachEligible: false, reportUrl: `https://agent-readiness.test/r/${ID}` };
  edit(report.matrix);
  return renderReportPage({ report, evidence: f.evidence, cliVantage: null, catalog: fullCatalog, history: [] });
}

test('a platform refusal and a price show in the grid cell and in the row\'s panel, escaped', () => {
  const html = page((m) => {
    const row = m.find((e) => e.ua === 'Claude-User')!;
    row.edgeDoes = { networkA: 'rate-limited', networkB: 'auth' };
    row.refusedBy = {
      networkA: { party: 'platform', vendor: 'shopify', evidence: 'HTTP 429 with x-shopid: <script>alert(1)</script>' },
      networkB: { party: 'edge', vendor: 'cloudflare', evidence: 'HTTP 402', asksToSign: 'sig1=("@authority")' },
    };
    row.offers = { networkB: { scheme: 'x402-v2', price: '0.01', currency: 'USDC', payee: '0x"><img src=x onerror=alert(2)>' } };
  });
  assert.ok(!html.includes('<script>alert(1)'), 'evidence is escaped');
  assert.ok(!html.includes('<img src=x'), 'payee is escaped');
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.match(html, /<span class="by">Shopify<\/span>/);
  assert.match(html, /<span class="by">Cloudflare · 0\.01 USDC<\/span>/);
  assert.match(html, /Network A: refused by the Shopify platform&#39;s bot rules, not by your site/);
  assert.match(html, /Network B: refused by the site&#39;s edge \(Cloudflare\).*the edge asks agents to sign \(Accept-Signature: sig1=\(&quot;@authority&quot;\)\)/);
  assert.match(html, /Network B: asked to pay 0\.01 USDC \(x402 v2, payable to 0x&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;\)/);
});

test('a report archived before refusedBy and offers renders as before', () => {
  const html = page(() => undefined);
  assert.doesNotMatch(html, /class="by"|class="refusals"/);
});

test('a cell that was not a denial (a 5xx) says who answered, never "refused"', () => {
  const html = page((m) => {
    const row = m.find((e) => e.ua === 'GPTBot')!;
    row.edgeDoes = { networkA: 'origin-error', networkB: 'pass' };
    row.refusedBy = { networkA: { party: 'origin', evidence: 'HTTP 503 with no CDN, WAF or platform denial marker' } };
  });
  assert.match(html, /Network A: not measured: the answer came from the site&#39;s own server <span class="muted">\(evidence: HTTP 503/);
});
