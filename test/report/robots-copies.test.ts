// The report page's "robots.txt as each agent gets it" section (src/report/robots-copies.ts):
// shown only when there is something to tell, site text escaped, absent for old reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { robotsTxtSection } from '../../src/report/robots-copies.ts';
import { robotsPatchSection } from '../../src/report/platform-fix.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';

const sha = (c: string) => c.repeat(64);
const report = (robotsTxt: ScanReportBody['robotsTxt']) => ({ robotsTxt } as ScanReportBody);

test('an old report (no robotsTxt) and a site that served everyone one copy show nothing', () => {
  assert.equal(robotsTxtSection(report(undefined)), '');
  assert.equal(robotsTxtSection(report({ variesByRequester: false, network: 'networkA', copies: [{ sha256: sha('a'), bytes: 23, status: 200, state: 'present', requesters: ['browser', 'GPTBot'], secondNetwork: ['browser'] }] })), '');
});

test('copies: who got which on each network; managed lines apart, numbered and escaped, with the setting and its link', () => {
  const html = String(robotsTxtSection(report({
    variesByRequester: true, network: 'networkA',
    copies: [
      { sha256: sha('a'), bytes: 23, status: 200, state: 'present', requesters: ['browser', 'ClaudeBot'], secondNetwork: ['browser'] },
      { sha256: sha('b'), bytes: 26, status: 200, state: 'present', requesters: ['GPTBot'], secondNetwork: ['GPTBot'] },
    ],
    managed: {
      vendor: 'cloudflare', vendorName: 'Cloudflare', agents: ['GPTBot'], firstLine: 1, lastLine: 3,
      lines: ['# BEGIN Cloudflare Managed content', 'User-agent: <script>alert(1)</script>', '# END Cloudflare Managed Content'],
      setting: 'Instruct AI bot traffic with robots.txt', docUrl: 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/', fix: 'Turn it off.',
    },
  })));
  assert.match(html, /<h2 id="robots-copies">robots\.txt as each agent gets it<\/h2>/);
  assert.match(html, /networkA: browser, ClaudeBot<br>networkB: browser/);
  assert.match(html, /<td><code>bbbbbbbbbbbb<\/code><\/td><td>26 bytes, HTTP 200<\/td><td>a text file<\/td><td class="wrap">networkA: GPTBot<br>networkB: GPTBot<\/td>/);
  assert.match(html, /Lines 1–3 of robots\.txt were added by Cloudflare at the edge, above the site's own rules \(which start at line 4\)/);
  assert.ok(html.includes('User-agent: &lt;script&gt;alert(1)&lt;/script&gt;') && !html.includes('<script>'), 'site text is escaped');
  assert.match(html, /<span class="dh">  2<\/span>/);
  assert.match(html, /href="https:\/\/developers\.cloudflare\.com\/bots\/additional-configurations\/managed-robots-txt\/"/);
});

test('a patch with no own line to change shows no diff, and names the managed setting', () => {
  const html = String(robotsPatchSection({
    reason: 'The edge turns away ChatGPT-User, which robots.txt allows.', unifiedDiff: '', agents: [],
    edgeAlternative: { platform: null, docUrl: null, text: 'Or change the edge.' },
    managed: { vendor: 'cloudflare', agents: ['ChatGPT-User'], setting: 'Instruct AI bot traffic with robots.txt', docUrl: 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/', text: 'Turn it off.' },
  }));
  assert.match(html, /No line of the site(&#39;|')s own needs to change\./);
  assert.doesNotMatch(html, /class="udiff"/);
  assert.match(html, /<strong>Managed lines, left as served:<\/strong> Turn it off\. <em>Instruct AI bot traffic with robots\.txt<\/em>\./);
});
