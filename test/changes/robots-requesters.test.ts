// robots.txt per requester in a comparison (src/changes/robots-diff.ts): which agents get an
// entry, grouping, and what is never claimed (a copy not kept, an unreadable browser copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownCopiesOf, requesterRobotsChanges, type KeptFile, type OwnCopy } from '../../src/changes/robots-diff.ts';

const AT = ['2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'] as const;
const allow: KeptFile = { state: 'present', body: 'User-agent: *\nAllow: /\n' };
const deny: KeptFile = { state: 'present', body: 'User-agent: *\nDisallow: /\n' };
const own = (entries: Array<[string, string, KeptFile | null]>) => new Map<string, OwnCopy>(entries.map(([t, sha, file]) => [t, { sha256: sha, file }]));

test('agents that followed the browser\'s copy in both scans get no entry; agents with the same pair of copies share one', () => {
  const out = requesterRobotsChanges(
    { browser: allow, own: own([]) },
    { browser: allow, own: own([['GPTBot', 'a'.repeat(64), deny], ['CCBot', 'a'.repeat(64), deny], ['ClaudeBot', 'b'.repeat(64), allow]]) },
    ['GPTBot', 'ClaudeBot', 'CCBot', 'Bytespider'], ...AT,
  );
  assert.deepEqual(out.map((g) => [g.agents, g.changed]), [[['GPTBot', 'CCBot'], true], [['ClaudeBot'], false]]);
  assert.equal(out[0]!.note, 'robots.txt as GPTBot and CCBot get it (a copy of their own now; the browser\'s copy before) changed.');
});

test('a copy whose body was not kept, or a browser copy that could not be read, is never called changed', () => {
  const [notKept] = requesterRobotsChanges({ browser: allow, own: own([]) }, { browser: allow, own: own([['GPTBot', 'c'.repeat(64), null]]) }, ['GPTBot'], ...AT);
  assert.equal(notKept!.changed, null);
  const [unread] = requesterRobotsChanges({ browser: { state: 'unknown' }, own: own([]) }, { browser: allow, own: own([['GPTBot', 'c'.repeat(64), deny]]) }, ['GPTBot'], ...AT);
  assert.equal(unread!.changed, null);
  assert.match(unread!.note, /could not be read in the earlier scan/);
});

test('ownCopiesOf reads a report: readable copies other than the browser\'s; none for a report without robotsTxt', () => {
  assert.equal(ownCopiesOf(undefined).size, 0);
  const m = ownCopiesOf({
    variesByRequester: true, network: 'networkA',
    copies: [
      { sha256: '1'.repeat(64), bytes: 23, state: 'present', requesters: ['browser', 'ClaudeBot'] },
      { sha256: '2'.repeat(64), bytes: 26, state: 'present', requesters: ['GPTBot'] },
      { sha256: '3'.repeat(64), bytes: 9, state: 'unknown', status: 403, requesters: ['Bytespider'] },
      { sha256: '4'.repeat(64), bytes: 9, state: 'absent', status: 404, requesters: ['CCBot'] },
    ],
  });
  assert.deepEqual([...m], [['GPTBot', { sha256: '2'.repeat(64), state: 'present' }], ['CCBot', { sha256: '4'.repeat(64), state: 'absent' }]]);
});
