// robots.txt as each requester gets it (src/scanner/robots-copies.ts, robots-report.ts): which copy
// each agent's verdict comes from, when copies "differ", who is asked again from the second
// network, and that identical copies are parsed once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectRobotsCopies, addSecondNetwork, robotsFileFor, ownsDifferentCopy, type RobotsViews } from '../../src/scanner/robots-copies.ts';
import { robotsCopyNotes, robotsTxtReasons, robotsTxtReport, variesByRequester } from '../../src/scanner/robots-report.ts';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { getRoster, probeableAgents } from '../../src/scanner/roster.ts';
import type { FetchedView } from '../../src/scanner/types.ts';
import { DOMAIN, fetched, type Resp } from './fixtures.ts';

const URL_ = `https://${DOMAIN}/robots.txt`;
const ALLOW = 'User-agent: *\nAllow: /\n';
const text = (body: string, status = 200): Resp => ({ status, body, headers: { 'content-type': 'text/plain' } });
const roster = getRoster();
const agents = probeableAgents();

/** robots.txt views: the browser gets `browser`, each agent `byAgent(token)` (default: the browser's answer). */
function views(browser: Resp, byAgent: (t: string) => Resp | undefined = () => undefined, second: Resp = browser): RobotsViews {
  return {
    network: 'networkA', secondNetwork: 'networkB',
    browser: fetched('robots:browser', URL_, browser),
    browserSecond: fetched('robots:browser', URL_, second, { network: 'networkB' }),
    agents: Object.fromEntries(agents.map((a) => [a.token, fetched(`robots:${a.token}`, URL_, byAgent(a.token) ?? browser, { ua: a.ua! })])),
  };
}

function collect(v: RobotsViews) {
  const control = readRobots({ ok: v.browser.ok, status: v.browser.status, contentType: v.browser.contentType, body: v.browser.body, edgeOutcome: v.browser.outcome } as never);
  return collectRobotsCopies(v, control, roster);
}

const says = (c: ReturnType<typeof collect>, token: string) => robotsSays(robotsFileFor(c, c.controlFile, token), roster.find((a) => a.token === token)!).says;

describe('robots.txt per requester: which copy decides', () => {
  test('everyone served the same bytes: one copy, parsed once (every agent shares the browser\'s parsed file), nobody asked again', () => {
    const c = collect(views(text(ALLOW)));
    assert.equal(c.copies.length, 1);
    assert.deepEqual(c.copies[0]!.requesters, ['browser', ...agents.map((a) => a.token)]);
    assert.ok(agents.every((a) => robotsFileFor(c, c.controlFile, a.token) === c.controlFile), 'one parsed file for all');
    assert.deepEqual(c.confirm, []);
    assert.equal(variesByRequester(c), false);
    assert.deepEqual(robotsTxtReasons(c, roster), []);
  });

  test('an agent served a copy of its own obeys it (RFC 9309); the others keep the browser\'s', () => {
    const c = collect(views(text(ALLOW), (t) => (t === 'GPTBot' ? text('User-agent: *\nDisallow: /\n') : undefined)));
    assert.equal(says(c, 'GPTBot'), 'blocked');
    assert.equal(says(c, 'ClaudeBot'), 'allowed');
    assert.equal(says(c, 'Google-Extended'), 'allowed', 'a token-only agent uses the browser\'s copy');
    assert.deepEqual(c.confirm, ['GPTBot']);
    assert.ok(ownsDifferentCopy(c, 'GPTBot') && !ownsDifferentCopy(c, 'ClaudeBot'));
    assert.equal(variesByRequester(c), true);
    assert.match(robotsTxtReasons(c, roster)[0]!, /^robots\.txt is not the same for every requester: GPTBot was served a copy that disallows \/ \(line 2: "Disallow: \/"\), while the browser's copy allows \//);
  });

  test('a copy that differs only in comments, blank lines, spacing or field-name case is not a different policy: nobody is asked again', () => {
    const c = collect(views(text(ALLOW), (t) => (t === 'GPTBot' ? text('# generated 2026-12-01T10:00:01Z\nuser-agent:   *\n\nALLOW: /   # all\n') : undefined)));
    assert.equal(c.copies.length, 2, 'two copies by their bytes');
    assert.deepEqual(c.confirm, []);
    assert.equal(variesByRequester(c), false);
    assert.deepEqual(robotsTxtReasons(c, roster), ['robots.txt came in 2 copies that differ only in comments or spacing; no agent\'s verdict depends on it.']);
  });

  const fallbacks: Array<[string, Resp, RegExp]> = [
    ['a 403 block', { status: 403, body: 'Forbidden', headers: { 'content-type': 'text/plain' } }, /^robots\.txt was answered with a block \(status 403\) when asked for as GPTBot, so its verdict uses the browser's copy$/],
    ['a challenge page', { status: 403, body: '<html><title>Just a moment...</title></html>', headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' } }, /answered with a challenge/],
    ['a 503', text('busy', 503), /^robots\.txt answered 503 when asked for as GPTBot/],
    ['an HTML page with 200', { status: 200, body: '<!doctype html><html><head><title>Home</title></head><body><p>hello</p></body></html>', headers: { 'content-type': 'text/html' } }, /^robots\.txt is absent \(the site answered with an HTML page\) when asked for as GPTBot/],
    ['no answer (transport error)', { error: 'TIMEOUT' }, /^robots\.txt was not received as GPTBot \(TIMEOUT\), so its verdict uses the browser's copy$/],
    ['not sent (budget spent)', { error: 'BUDGET' }, /^robots\.txt was not received as GPTBot \(BUDGET\)/],
  ];
  for (const [name, resp, note] of fallbacks) {
    test(`an agent whose own request met ${name} is judged by the browser's copy, and its row says so`, () => {
      const c = collect(views(text('User-agent: GPTBot\nDisallow: /\n'), (t) => (t === 'GPTBot' ? resp : undefined)));
      assert.equal(says(c, 'GPTBot'), 'blocked');
      assert.deepEqual(c.confirm, [], 'an unreadable answer is not asked for again');
      assert.equal(variesByRequester(c), false);
      assert.match(robotsCopyNotes(c, roster.find((a) => a.token === 'GPTBot')!).join(' | '), note);
      assert.deepEqual(robotsCopyNotes(c, roster.find((a) => a.token === 'ClaudeBot')!), []);
    });
  }

  test('a plain 404 for one agent is a readable copy: no rules, so that agent is allowed (RFC 9309 §2.3.1.3)', () => {
    const c = collect(views(text('User-agent: *\nDisallow: /\n'), (t) => (t === 'CCBot' ? text('not found', 404) : undefined)));
    assert.equal(says(c, 'CCBot'), 'allowed');
    assert.equal(says(c, 'GPTBot'), 'blocked');
    assert.deepEqual(c.confirm, ['CCBot']);
  });

  test('when the browser could not read robots.txt, agents with a readable copy use it, and the difference is measured against the copy most agents got', () => {
    const c = collect(views({ status: 403, body: 'denied', headers: { 'content-type': 'text/plain' } }, (t) => (t === 'Bytespider' ? text('User-agent: *\nDisallow: /\n') : text(ALLOW))));
    assert.equal(c.controlFile.state, 'unknown');
    assert.equal(says(c, 'GPTBot'), 'allowed');
    assert.equal(says(c, 'Bytespider'), 'blocked');
    assert.equal(says(c, 'Google-Extended'), 'unknown', 'a token-only agent has only the browser\'s copy');
    assert.deepEqual(c.confirm, ['Bytespider']);
  });

  test('the second network: confirmed, got the browser\'s copy, or could not tell; the reason and notes say which', () => {
    const own = 'User-agent: *\nDisallow: /\n';
    const c = collect(views(text(ALLOW), (t) => (['GPTBot', 'ClaudeBot', 'CCBot'].includes(t) ? text(own) : undefined)));
    assert.deepEqual(c.confirm, ['GPTBot', 'ClaudeBot', 'CCBot']);
    const second: Record<string, FetchedView> = {
      GPTBot: fetched('robots:GPTBot', URL_, text(own), { network: 'networkB' }),
      ClaudeBot: fetched('robots:ClaudeBot', URL_, text(ALLOW), { network: 'networkB' }),
      CCBot: fetched('robots:CCBot', URL_, { error: 'TIMEOUT' }, { network: 'networkB' }),
    };
    addSecondNetwork(c, second);
    const [reason] = robotsTxtReasons(c, roster);
    assert.match(reason!, /GPTBot, ClaudeBot and CCBot were served a copy that disallows \//);
    assert.match(reason!, /NetworkB served GPTBot the same copy; on networkB ClaudeBot got the browser's copy, so the difference may follow the network rather than the requester; networkB could not confirm it for CCBot\.$/);
    const report = robotsTxtReport(c, roster);
    assert.deepEqual(report.copies.map((x) => [x.requesters.length, x.secondNetwork ?? []]), [[1 + agents.length - 3, ['browser', 'ClaudeBot']], [3, ['GPTBot']]]);
    assert.match(robotsCopyNotes(c, roster.find((a) => a.token === 'ClaudeBot')!)[0]!, /; on networkB ClaudeBot got a copy that says something else/);
  });

  test('the browser\'s copy differs between the networks: a reason, and the verdicts read the robots network\'s copies', () => {
    const c = collect(views(text(ALLOW), undefined, text('User-agent: *\nDisallow: /\n')));
    assert.equal(says(c, 'GPTBot'), 'allowed');
    assert.equal(variesByRequester(c), false, 'the browser is one requester');
    assert.match(robotsTxtReasons(c, roster).join(' | '), /robots\.txt as the browser gets it differs between the two networks \(networkA: [0-9a-f]{8}, 23 bytes; networkB: [0-9a-f]{8}, 26 bytes\)/);
  });
});
