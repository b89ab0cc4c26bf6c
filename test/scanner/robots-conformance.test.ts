// RFC 9309 conformance table: every case transcribed from public suites (google/robotstxt,
// scrapy/protego) and RFC 9309's own examples, in test/fixtures/robots/, runs through the
// engine's matcher. Cases outside RFC 9309 (vendor extensions, or where a suite contradicts the
// RFC) are listed with their reason in excluded.json; every other case must pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { decidingRule, parseRobotsRules, pathOf, rulesFor } from '../../src/scanner/robots-rules.ts';

interface Case { id: string; robots: string; agent: string; url: string; allowed: boolean }
const dir = new URL('../fixtures/robots/', import.meta.url);
const read = <T>(f: string): T => JSON.parse(fs.readFileSync(new URL(f, dir), 'utf8')) as T;
const suites = ['google-robotstxt.json', 'protego.json', 'rfc9309.json'].map((f) => read<{ source: object; cases: Case[] }>(f));
const excluded = read<{ excluded: Record<string, string> }>('excluded.json').excluded;
const all = suites.flatMap((s) => s.cases);

function allowed(c: Case): boolean {
  const selected = rulesFor(parseRobotsRules(c.robots), c.agent);
  const rule = selected ? decidingRule(selected.rules, pathOf(c.url)) : null;
  return !rule || rule.allow;
}

const inScope = all.filter((c) => !(c.id in excluded));
const failures = inScope.filter((c) => allowed(c) !== c.allowed);
const rate = (((inScope.length - failures.length) / inScope.length) * 100).toFixed(1);

test(`robots.txt conformance: ${inScope.length - failures.length} of ${inScope.length} in-scope cases pass (${rate} %); ${Object.keys(excluded).length} of ${all.length} listed as outside RFC 9309`, () => {
  assert.ok(all.length >= 350, `the table holds ${all.length} cases`);
  assert.deepEqual(failures.map((c) => `${c.id}: expected ${c.allowed ? 'allowed' : 'disallowed'} for ${c.agent} at ${c.url}`), []);
});

test('every excluded robots.txt case exists in the table and carries its reason', () => {
  const ids = new Set(all.map((c) => c.id));
  for (const [id, reason] of Object.entries(excluded)) {
    assert.ok(ids.has(id), `${id} is not in any suite`);
    assert.ok(reason.length > 20, `${id} needs a reason`);
  }
});

test('every robots.txt case id is unique and every suite names its public source', () => {
  assert.equal(new Set(all.map((c) => c.id)).size, all.length);
  for (const s of suites) assert.match(JSON.stringify(s.source), /https:\/\//);
});

test('the engine reads GPTBot as blocked when a Crawl-delay separates its user-agent line from the rules', () => {
  const file = readRobots({ ok: true, status: 200, contentType: 'text/plain', edgeOutcome: 'pass', body: 'User-agent: GPTBot\nCrawl-delay: 10\nUser-agent: ClaudeBot\nDisallow: /\n' });
  assert.equal(file.groupCount, 1);
  const answer = robotsSays(file, { token: 'GPTBot' });
  assert.deepEqual(answer, { says: 'blocked', group: 'gptbot', line: 4, lineText: 'Disallow: /' });
});

test('the engine reads a trailing user-agent line with no rules as allowing that agent, not as the * group', () => {
  const file = readRobots({ ok: true, status: 200, contentType: 'text/plain', edgeOutcome: 'pass', body: 'User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\n' });
  assert.equal(robotsSays(file, { token: 'GPTBot' }).says, 'allowed');
  assert.equal(robotsSays(file, { token: 'ClaudeBot' }).says, 'blocked');
});

test('/methodology.md states the robots.txt conformance figures this table measures', () => {
  const doc = fs.readFileSync(new URL('../../src/docs/text/methodology.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.ok(doc.includes(`all ${inScope.length} in-scope cases`), 'in-scope count');
  assert.ok(doc.includes(`${Object.keys(excluded).length} cases that test vendor extensions`), 'excluded count');
});
