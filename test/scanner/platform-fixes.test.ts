// Fixes for the platform that served the page, and a robots.txt that says what the site does,
// against real scans of the test world (issue 32, items 5 and 6).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { createScanner, type ScanOutcome } from '../../src/scanner/engine.ts';
import { PLATFORMS } from '../../src/scanner/data/platforms/index.ts';
import { documentsFor } from '../../src/docs/documents.ts';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import { assertRobotsPatch, patchedRobots } from './robots-patch-check.ts';

let world: World;
before(async () => { world = await startWorld(); });
after(async () => { await world.stop(); });

const scan = (name: string): Promise<ScanOutcome> => createScanner({ networks: world.egress({}), deadlineMs: 15_000, probeTimeoutMs: 5_000 }).scan(world.domain(name));

describe('platform fixes', () => {
  test('On a Cloudflare-attributed world site, access.user-agents names Cloudflare\'s setting (AI Crawl Control, a WAF custom rule expression) with its documentation page', async () => {
    const { report } = await scan('cf-agents-challenged');
    assert.deepEqual(report.platforms?.map((p) => [p.id, p.role]), [['cloudflare', 'edge']]);
    assert.match(report.platforms![0]!.evidence, /cloudflare|cf-/i, 'the marker that attributed it');
    assert.equal(report.checks.find((c) => c.id === 'access.user-agents')?.status, 'fail');
    const fix = report.platformFixes?.find((f) => f.checkId === 'access.user-agents');
    assert.ok(fix, 'the failing check has a Cloudflare fix');
    assert.equal(fix.platform, 'cloudflare');
    assert.match(fix.setting, /AI Crawl Control/);
    assert.equal(fix.docUrl, 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/');
    for (const agent of ['ChatGPT-User', 'Claude-User', 'Perplexity-User']) {
      assert.match(fix.text, new RegExp(agent), `names ${agent}, which the edge turned away`);
      assert.match(fix.snippet ?? '', new RegExp(`\\(http\\.user_agent contains "${agent}"\\)`), 'a WAF custom rule expression for it');
    }
    assert.doesNotMatch(fix.text, /GPTBot/, 'only the user-triggered agents of this check');
    // The robots.txt patch's other direction speaks Cloudflare's words too.
    assert.equal(report.robotsPatch?.edgeAlternative.platform, 'cloudflare');
    assert.match(report.robotsPatch!.edgeAlternative.text, /AI Crawl Control/);
  });

  test('On a Cloudflare site the missing discovery files, the Link header and the AI rules of robots.txt get Cloudflare\'s settings too', async () => {
    const { report } = await scan('cf-agents-challenged');
    const expected: Record<string, RegExp> = {
      'discovery.link-headers': /^https:\/\/developers\.cloudflare\.com\/rules\/transform\/response-header-modification\/$/,
      'trust.security-txt': /^https:\/\/developers\.cloudflare\.com\/workers\/static-assets\/$/,
      'discovery.llms-txt': /^https:\/\/developers\.cloudflare\.com\/workers\/static-assets\/$/,
      'policy.training-preference': /^https:\/\/developers\.cloudflare\.com\/bots\/additional-configurations\/managed-robots-txt\/$/,
      'policy.ai-rules-explicit': /^https:\/\/developers\.cloudflare\.com\/bots\/additional-configurations\/managed-robots-txt\/$/,
    };
    const failing = report.checks.filter((c) => c.id in expected && c.status === 'fail').map((c) => c.id);
    assert.ok(failing.includes('discovery.link-headers') && failing.includes('trust.security-txt'), `the scenario misses these files: ${failing.join(', ')}`);
    for (const id of failing) {
      const fix = report.platformFixes?.find((f) => f.checkId === id && f.platform === 'cloudflare');
      assert.ok(fix, `${id} has a Cloudflare fix`);
      assert.match(fix.docUrl, expected[id]!, id);
    }
    const link = report.platformFixes!.find((f) => f.checkId === 'discovery.link-headers')!;
    assert.match(link.snippet ?? '', /^\(http\.request\.uri\.path eq "\/"\)\nLink: <\/sitemap\.xml>; rel="sitemap"/);
    const passing = report.checks.filter((c) => c.status === 'pass' && (c.credit === undefined || c.credit === 1)).map((c) => c.id);
    assert.ok(!report.platformFixes!.some((f) => passing.includes(f.checkId)), 'no fix for a check that already has full credit');
  });

  test('a Vercel site gets the Firewall\'s custom rules; a site with no edge gets no platform fix', async () => {
    const vercel = (await scan('vercel-checkpoint')).report;
    assert.ok(vercel.platforms?.some((p) => p.id === 'vercel'));
    const fix = vercel.platformFixes?.find((f) => f.checkId === 'access.user-agents');
    assert.equal(fix?.platform, 'vercel');
    assert.match(fix!.setting, /Firewall → Custom rules/);
    assert.match(fix!.docUrl, /^https:\/\/vercel\.com\/docs\/vercel-firewall\//);
    const plain = (await scan('open-basic')).report;
    assert.deepEqual(plain.platforms, []);
    assert.deepEqual(plain.platformFixes, []);
  });

  test('a WordPress site on nginx: the origin and the CMS are attributed, and each failing check gets its own platform\'s fix', async () => {
    const { report } = await scan('wordpress-nginx');
    assert.deepEqual(report.platforms?.map((p) => [p.id, p.role]), [['nginx', 'origin'], ['wordpress', 'cms']]);
    assert.match(report.platforms![0]!.evidence, /^header server: nginx\/1\.22\.1/);
    const search = report.checks.find((c) => c.id === 'policy.search-user-allowed')!;
    assert.ok(search.credit !== undefined && search.credit < 1, 'the check costs points (partial credit)');
    const wp = report.platformFixes?.find((f) => f.checkId === 'policy.search-user-allowed');
    assert.equal(wp?.platform, 'wordpress');
    assert.equal(wp!.docUrl, 'https://developer.wordpress.org/reference/hooks/robots_txt/');
    assert.match(wp!.snippet ?? '', /add_filter\( 'robots_txt'/);
    assert.match(wp!.snippet ?? '', /User-agent: OAI-SearchBot\\nAllow: \//, 'an Allow group for an agent robots.txt turns away');
    const md = report.platformFixes?.find((f) => f.checkId === 'content.markdown-negotiation');
    assert.equal(md?.platform, 'nginx');
    assert.match(md!.snippet ?? '', /map \$http_accept \$twin/);
    assert.equal(report.robotsPatch, undefined, 'robots.txt disallows agents the edge lets in, but nothing invites them: robots.txt is the site\'s choice');
  });

  test('every platform of the table has a documentation page on the vendor\'s own site for every fix it offers', () => {
    const hosts: Record<string, RegExp> = {
      cloudflare: /^https:\/\/developers\.cloudflare\.com\//, vercel: /^https:\/\/vercel\.com\/docs\//, netlify: /^https:\/\/docs\.netlify\.com\//,
      akamai: /^https:\/\/techdocs\.akamai\.com\//, fastly: /^https:\/\/www\.fastly\.com\/documentation\//, aws: /^https:\/\/docs\.aws\.amazon\.com\//,
      'azure-front-door': /^https:\/\/learn\.microsoft\.com\//, imperva: /^https:\/\/docs\.imperva\.com\//, nginx: /^https:\/\/nginx\.org\//,
      apache: /^https:\/\/httpd\.apache\.org\//, caddy: /^https:\/\/caddyserver\.com\/docs\//, wordpress: /^https:\/\/developer\.wordpress\.org\//,
      // issue 37 item 6: the SEO plugins; All in One SEO has a captured marker but no documentation page we read, so no fix.
      'yoast-seo': /^https:\/\/developer\.yoast\.com\//, 'rank-math': /^https:\/\/rankmath\.com\/kb\//, 'all-in-one-seo': /^$/,
    };
    const undocumented = new Set(['all-in-one-seo']);
    assert.deepEqual(PLATFORMS.map((p) => p.id).sort(), Object.keys(hosts).sort(), 'the platforms issues 32 and 37 name');
    for (const p of PLATFORMS) {
      assert.equal(Object.keys(p.fixes).length > 0, !undocumented.has(p.id), `${p.id} has fixes exactly when its setting is documented`);
      for (const [check, build] of Object.entries(p.fixes)) {
        const f = build({ agents: ['ChatGPT-User', 'Claude-User'] });
        assert.match(f.docUrl, hosts[p.id]!, `${p.id} ${check}`);
        assert.ok(f.setting.length > 3 && f.text.length > 20, `${p.id} ${check} names a setting and says what to do`);
      }
    }
  });
  test('/methodology.md lists every platform fix from the same table, with its documentation link', () => {
    const md = documentsFor('http://agent-readiness.test').methodology;
    assert.doesNotMatch(md, /\{\{/, 'every placeholder filled');
    for (const p of PLATFORMS) {
      for (const [check, build] of Object.entries(p.fixes)) {
        const f = build({ agents: ['ChatGPT-User'] });
        assert.ok(md.includes(`| \`${check}\` | ${f.setting.replace(/\|/g, '\\|')} | [${new URL(f.docUrl).host}](${f.docUrl}) |`), `${p.id} ${check}`);
      }
    }
  });
});

describe('a robots.txt that says what the site does', () => {
  test('The proposed robots.txt patch for contradictory-llms makes robots.txt agree with what the site invites', async () => {
    const { report, files } = await scan('contradictory-llms');
    assert.equal(report.headline, 'contradictory');
    const patch = report.robotsPatch;
    assert.ok(patch, 'a patch is offered');
    assert.match(patch.unifiedDiff, /^--- robots\.txt\tas served\n\+\+\+ robots\.txt\tproposed\n@@ /);
    assert.match(patch.unifiedDiff, /^-Disallow: \/$/m);
    assert.match(patch.unifiedDiff, /^\+Allow: \/$/m);
    assert.deepEqual(patch.agents.map((a) => [a.ua, a.edge, a.before, a.after]), [['ChatGPT-User', 'allows', 'blocked', 'allowed'], ['Perplexity-User', 'allows', 'blocked', 'allowed']]);
    const after = patchedRobots(report, files)!;
    const file = readRobots({ ok: true, status: 200, contentType: 'text/plain', body: after, edgeOutcome: 'pass' });
    const agent = (t: string) => getRoster().find((a) => a.token === t)!;
    // The agents llms.txt invites (the user-triggered fetchers) are all allowed now; nothing else moved.
    for (const t of ['ChatGPT-User', 'Perplexity-User', 'Claude-User']) assert.equal(robotsSays(file, agent(t)).says, 'allowed', t);
    assert.equal(after.split('\n').length, (files[0]!.body ?? '').trimEnd().split('\n').length + 1, 'minimal: one line changed, none added');
    assertRobotsPatch(report, files, 'contradictory-llms');
    assert.equal(patch.edgeAlternative.platform, null, 'no edge attributed: the other direction in general words');
    assert.match(patch.edgeAlternative.text, /blocks ChatGPT-User and Perplexity-User/);
  });
});
