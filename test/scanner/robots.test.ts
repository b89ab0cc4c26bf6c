// robots.txt per RFC 9309: status rules, size cap, percent-encoding, groups and evidence lines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePath, readRobots, robotsSays, ROBOTS_MAX_BYTES } from '../../src/scanner/robots.ts';

const text = (body: string, status = 200, contentType = 'text/plain', edgeOutcome = 'pass') => readRobots({ ok: true, status, contentType, body, edgeOutcome });

describe('robots: status-code rules', () => {
  const table: Array<[string, ReturnType<typeof readRobots>, string]> = [
    ['200 text is parsed', text('User-agent: *\nDisallow: /x'), 'parsed'],
    ['404 means no rules', text('nope', 404), 'none'],
    ['410 means no rules', text('gone', 410), 'none'],
    ['401 is a 4xx: no rules (RFC 9309 §2.3.1.3)', text('', 401), 'none'],
    ['500 is unknown', text('', 500), 'unknown'],
    ['503 is unknown', text('', 503), 'unknown'],
    ['HTML instead of text is unknown', text('<!doctype html><p>hi', 200, 'text/html'), 'unknown'],
    ['a challenge page with status 200 is unknown', text('<title>Just a moment...</title>', 200, 'text/plain', 'challenge'), 'unknown'],
    ['a block is unknown even with 403', text('denied', 403, 'text/plain', 'block'), 'unknown'],
    ['a transport failure is unknown', readRobots({ ok: false }), 'unknown'],
  ];
  for (const [name, file, state] of table) test(`robots status rule: ${name}`, () => assert.equal(file.state, state));

  // The reason is a sentence of the report's "Why" list.
  const turnedAway: Array<[string, number, string]> = [['challenge', 403, 'a challenge'], ['block', 403, 'a block'], ['rate-limited', 429, 'a rate limit'], ['auth', 401, 'a login requirement']];
  for (const [outcome, status, words] of turnedAway) {
    test(`robots status rule: an edge's ${outcome} leaves robots.txt unread, and the reason says it in words`, () => {
      const file = text('<p>no', status, 'text/html', outcome);
      assert.deepEqual([file.state, file.reason], ['unknown', `robots.txt was answered with ${words} (status ${status})`]);
    });
  }
});

describe('robots: per-agent answers', () => {
  const file = text([
    'User-agent: *', 'Allow: /', '',
    'User-agent: GPTBot', 'User-agent: CCBot', 'Disallow: /', '',
    'User-agent: ClaudeBot', 'Disallow: /private/', '',
    'User-agent: Googlebot', 'Disallow: /', '',
    'User-agent: PerplexityBot', 'Disallow: /%7Eteam', 'Allow: /',
  ].join('\n'));
  const table: Array<[string, string | undefined, string, string, number | null, string | null]> = [
    ['GPTBot', undefined, '/', 'blocked', 6, 'gptbot'],
    ['gptbot', undefined, '/', 'blocked', 6, 'gptbot'],
    ['CCBot', undefined, '/', 'blocked', 6, 'ccbot'],
    ['ClaudeBot', undefined, '/', 'partial', 9, 'claudebot'],
    ['ClaudeBot', undefined, '/private/x', 'blocked', 9, 'claudebot'],
    ['Applebot', 'Googlebot', '/', 'blocked', 12, 'googlebot'],
    ['OAI-SearchBot', undefined, '/', 'allowed', 2, '*'],
    ['PerplexityBot', undefined, '/~team/a', 'blocked', 15, 'perplexitybot'],
    ['PerplexityBot', undefined, '/%7eteam/a', 'blocked', 15, 'perplexitybot'],
  ];
  for (const [token, fallback, path, says, line, group] of table) {
    test(`robots says ${says} for ${token} on ${path}`, () => {
      const a = robotsSays(file, { token, robotsFallback: fallback }, path);
      assert.equal(a.says, says);
      assert.equal(a.line, line);
      assert.equal(a.group, group);
      if (line) assert.equal(a.lineText, file.lines[line - 1]!.trim());
    });
  }
  test('robots: Applebot without a Googlebot group falls back to the wildcard group', () => {
    assert.equal(robotsSays(text('User-agent: *\nDisallow: /\n'), { token: 'Applebot', robotsFallback: 'Googlebot' }).says, 'blocked');
  });
  test('robots: an empty file and a missing file both allow everything', () => {
    assert.equal(robotsSays(text(''), { token: 'GPTBot' }).says, 'allowed');
    assert.equal(robotsSays(text('', 404), { token: 'GPTBot' }).says, 'allowed');
    assert.equal(robotsSays(text('', 500), { token: 'GPTBot' }).says, 'unknown');
  });
  test('robots: "Disallow:" with an empty value disallows nothing', () => {
    assert.equal(robotsSays(text('User-agent: *\nDisallow:\n'), { token: 'GPTBot' }).says, 'allowed');
  });
});

describe('robots: limits and normalisation', () => {
  test('robots: only the first 500 KiB are parsed, cut at a line end', () => {
    const filler = '# filler line to grow the file past the RFC 9309 parsing limit\n'.repeat(Math.ceil((ROBOTS_MAX_BYTES + 10_000) / 64));
    const file = text(`User-agent: *\nAllow: /\n${filler}User-agent: GPTBot\nDisallow: /\n`);
    assert.equal(file.truncated, true);
    assert.equal(robotsSays(file, { token: 'GPTBot' }).says, 'allowed', 'the rule past the cap is ignored');
  });
  test('robots: percent-encoding normalisation decodes unreserved octets and upper-cases the rest', () => {
    assert.equal(normalizePath('/%7ejoe/%2fa%c3%a9'), '/~joe/%2Fa%C3%A9');
    assert.equal(normalizePath('/a%2Db%5F'), '/a-b_');
  });
  test('robots: extension lines (Content-Signal, Content-Usage, License, Sitemap) are kept with line numbers', () => {
    const file = text('User-agent: *\nContent-Signal: search=yes\nContent-Usage: train-ai=n\nLicense: https://a.example-shop.io/l.xml\nSitemap: https://a.example-shop.io/s.xml\nFoo: bar\n');
    assert.deepEqual(file.extensions.map((e) => [e.field, e.line]), [['content-signal', 2], ['content-usage', 3], ['license', 4]]);
    assert.deepEqual(file.sitemaps, ['https://a.example-shop.io/s.xml']);
    assert.equal(file.unknownLines, 1);
    assert.equal(file.groupCount, 1);
  });
});
