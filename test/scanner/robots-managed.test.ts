// Managed robots.txt (src/scanner/robots-managed.ts): found only by the vendor's documented marker
// lines; the agents it decides; the robots.txt patch never edits its lines and names the setting;
// the platform fix for a check it makes fail; the platform attributed by its markers alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectRobotsCopies } from '../../src/scanner/robots-copies.ts';
import { findManagedBlock, managedAgents } from '../../src/scanner/robots-managed.ts';
import { managedFinding, robotsTxtReport } from '../../src/scanner/robots-report.ts';
import { proposeRobotsPatch } from '../../src/scanner/robots-patch.ts';
import { attributePlatforms, platformFixes } from '../../src/scanner/platforms.ts';
import { runRubric } from '../../src/scanner/rubric.ts';
import { readRobots } from '../../src/scanner/robots.ts';
import { getRoster, probeableAgents } from '../../src/scanner/roster.ts';
import type { ScanEvidence } from '../../src/scanner/evidence.ts';
import { CLOUDFLARE_MANAGED_BLOCK } from '../world/scenarios/robots-requesters.ts';
import { DOMAIN, evidence, fetched, type BaselineOptions, type Resp } from './fixtures.ts';

const roster = getRoster();
const file = (body: string) => readRobots({ ok: true, status: 200, contentType: 'text/plain', body, edgeOutcome: 'pass' });
const TEXT = { 'content-type': 'text/plain' };

describe('managed robots.txt: the block', () => {
  test('Cloudflare\'s block is found by its documented markers; the comments above it from the top of the file are Cloudflare\'s too', () => {
    const f = file(`${CLOUDFLARE_MANAGED_BLOCK}\nUser-agent: *\nDisallow: /private/\n`);
    assert.deepEqual(findManagedBlock(f), { vendor: 'cloudflare', vendorName: 'Cloudflare', firstLine: 1, lastLine: 37, beginLine: 4, endLine: 37 });
  });

  test('the marker lines match ignoring case and runs of spaces, as whole lines only', () => {
    assert.equal(findManagedBlock(file('#  begin CLOUDFLARE managed   CONTENT\nUser-agent: GPTBot\nDisallow: /\n# end cloudflare managed content\nUser-agent: *\nAllow: /\n'))?.lastLine, 4);
    assert.equal(findManagedBlock(file('# We used to have a # BEGIN Cloudflare Managed content block here\nUser-agent: *\nAllow: /\n')), null);
    assert.equal(findManagedBlock(file('User-agent: *\nAllow: /\n')), null);
    assert.equal(findManagedBlock(readRobots({ ok: true, status: 404, contentType: 'text/plain', body: '# BEGIN Cloudflare Managed content', edgeOutcome: 'pass' })), null, 'a 404 has no lines');
  });

  test('a marker below the owner\'s own rules: only the marked lines are the vendor\'s; no end marker: to the end of the file', () => {
    const f = file('User-agent: *\nDisallow: /tmp/\n# BEGIN Cloudflare Managed content\nUser-agent: GPTBot\nDisallow: /\n');
    assert.deepEqual(findManagedBlock(f), { vendor: 'cloudflare', vendorName: 'Cloudflare', firstLine: 3, lastLine: 5, beginLine: 3, endLine: null });
  });

  test('the agents it decides: those the owner\'s lines alone judge otherwise (not an agent the owner disallows as well)', () => {
    const owner = 'User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n';
    const f = file(`${CLOUDFLARE_MANAGED_BLOCK}\n${owner}`);
    // RFC 9309 §2.2.1-2: GPTBot's two groups combine and Allow: / wins the tie with Disallow: /, so
    // GPTBot may fetch /; but the managed Disallow still turns the owner's "allowed" into "partial".
    assert.deepEqual(managedAgents(f, findManagedBlock(f)!, roster), ['GPTBot', 'Google-Extended', 'Applebot-Extended', 'meta-externalagent', 'CCBot', 'Bytespider', 'Amazonbot']);
  });

  test('the managed `User-Agent: *` / `Allow: /` overrides an owner\'s blanket Disallow (Allow wins the tie): every unnamed agent is decided by it', () => {
    const f = file(`${CLOUDFLARE_MANAGED_BLOCK}\nUser-agent: *\nDisallow: /\n`);
    const decided = managedAgents(f, findManagedBlock(f)!, roster);
    assert.ok(decided.includes('ChatGPT-User') && decided.includes('PerplexityBot') && decided.includes('Googlebot'));
    assert.ok(!decided.includes('GPTBot'), 'GPTBot is disallowed either way');
  });
});

/** Baseline evidence whose robots.txt every requester got, as the engine records it. */
function withCopies(o: BaselineOptions): ScanEvidence {
  const ev = evidence(o);
  const url = `https://${DOMAIN}/robots.txt`;
  const resp: Resp = o.robots ?? { body: 'User-agent: *\nAllow: /\n', headers: TEXT };
  ev.robotsTxt = collectRobotsCopies({
    network: 'networkA', secondNetwork: 'networkB', browser: ev.robotsFetch, browserSecond: fetched('robots:browser', url, resp, { network: 'networkB' }),
    agents: Object.fromEntries(probeableAgents().map((a) => [a.token, fetched(`robots:${a.token}`, url, resp, { ua: a.ua! })])),
  }, ev.robots, roster);
  return ev;
}

const forbidden: Resp = { status: 403, body: 'Forbidden', headers: TEXT };

describe('managed robots.txt: the patch, the fix and the attribution', () => {
  test('the patch edits only the owner\'s lines and leaves the agents the managed lines decide to the setting', () => {
    const robots = `${CLOUDFLARE_MANAGED_BLOCK}\nUser-agent: *\nAllow: /\n`;
    const ev = withCopies({ robots: { body: robots, headers: TEXT }, agent: (t) => (t === 'ChatGPT-User' ? forbidden : undefined) });
    const patch = proposeRobotsPatch(ev, 'partially-blocked', attributePlatforms(ev))!;
    assert.deepEqual(patch.agents.map((a) => [a.ua, a.before, a.after]), [['ChatGPT-User', 'allowed', 'blocked']]);
    assert.deepEqual(patch.managed?.agents, ['GPTBot', 'ClaudeBot', 'meta-externalagent', 'CCBot', 'Bytespider', 'Amazonbot']);
    assert.equal(patch.managed?.docUrl, 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/');
    assert.match(patch.managed!.setting, /Instruct AI bot traffic with robots\.txt/);
    assert.match(patch.reason, /comes from Cloudflare's managed block \(lines 1–37\), which this patch leaves as served/);
    const removed = patch.unifiedDiff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    assert.deepEqual(removed, [], 'no line removed');
    assert.match(patch.unifiedDiff, /^@@ -37,3 \+37,6 @@\n # END Cloudflare Managed Content\n/m, 'the end marker is context: every added line comes after the managed block');
  });

  test('when every disagreement comes from the managed lines, no own line changes: an empty diff and the setting', () => {
    // The owner disallows everyone, but Cloudflare's `User-Agent: *` / `Allow: /` wins the tie; the edge turns every agent away.
    const ev = withCopies({ robots: { body: `${CLOUDFLARE_MANAGED_BLOCK}\nUser-agent: *\nDisallow: /\n`, headers: TEXT }, agent: () => forbidden });
    const patch = proposeRobotsPatch(ev, 'agent-hostile', attributePlatforms(ev))!;
    assert.equal(patch.unifiedDiff, '');
    assert.deepEqual(patch.agents, []);
    assert.ok(patch.managed!.agents.includes('ChatGPT-User'));
  });

  test('a check that fails because of managed lines gets the vendor\'s setting as its platform fix; the vendor is attributed by its markers', () => {
    const block = '# BEGIN Cloudflare Managed content\nUser-agent: PerplexityBot\nUser-agent: OAI-SearchBot\nDisallow: /\n# END Cloudflare Managed Content\n';
    const ev = withCopies({ robots: { body: `${block}User-agent: *\nAllow: /\n`, headers: TEXT } });
    const platforms = attributePlatforms(ev);
    assert.deepEqual(platforms, [{ id: 'cloudflare', name: 'Cloudflare', role: 'edge', evidence: 'its managed robots.txt block (line 1: "# BEGIN Cloudflare Managed content")' }]);
    const { checks } = runRubric(ev, 'general');
    assert.equal(checks.find((c) => c.id === 'policy.search-user-allowed')?.status, 'pass', 'partial credit still costs points');
    const fix = platformFixes(ev, checks, platforms).find((f) => f.checkId === 'policy.search-user-allowed');
    assert.ok(fix, 'a fix for policy.search-user-allowed');
    assert.equal(fix.platform, 'cloudflare');
    assert.equal(fix.docUrl, 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/');
    assert.match(fix.text, /decide OAI-SearchBot and PerplexityBot/);
    const report = robotsTxtReport(ev.robotsTxt!, roster);
    assert.deepEqual(report.managed?.agents, ['OAI-SearchBot', 'PerplexityBot']);
    assert.deepEqual(report.managed?.lines, block.trimEnd().split('\n'));
    assert.equal(managedFinding(ev.robotsTxt!, roster)?.block.firstLine, 1);
  });

  test('no managed block: no managed field, no patch pointer, no extra fix', () => {
    const ev = withCopies({ agent: (t) => (t === 'ChatGPT-User' ? forbidden : undefined) });
    assert.equal(robotsTxtReport(ev.robotsTxt!, roster).managed, undefined);
    assert.equal(proposeRobotsPatch(ev, 'partially-blocked', [])?.managed, undefined);
  });
});
