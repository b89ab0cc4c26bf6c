// Matrix verdict, headline and confidence rules of verdicts.md, one table row per rule, over recorded evidence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideHeadline } from '../../src/scanner/headline.ts';
import type { Headline, MatrixVerdict } from '../../src/scanner/types.ts';
import { evidence, type BaselineOptions } from './fixtures.ts';
import { htmlPage, LOREM } from '../world/site.ts';
import { SCORED, USER } from '../world/scenarios/tokens.ts';

const forbidden = { status: 403, body: 'Forbidden' };
const challenge = { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '<title>Just a moment...</title>' };
const txt = (body: string) => ({ body, headers: { 'content-type': 'text/plain' } });
const long = { body: htmlPage({ text: `${LOREM} ${LOREM}` }) };

describe('matrix verdict rules (first match wins)', () => {
  const table: Array<[string, string, BaselineOptions, MatrixVerdict, string]> = [
    ['1 token-only agent', 'Google-Extended', {}, 'not-probeable', 'inferred'],
    ['2 no decided cell (transport errors)', 'GPTBot', { agent: (t) => (t === 'GPTBot' ? { error: 'TIMEOUT' } : undefined) }, 'inconclusive', 'could-not-measure'],
    ['2 no decided cell (no usable network)', 'GPTBot', { control: () => forbidden }, 'inconclusive', 'could-not-measure'],
    ['2 no decided cell (404 home for the agent)', 'GPTBot', { agent: (t) => (t === 'GPTBot' ? { status: 404, body: 'x' } : undefined) }, 'inconclusive', 'could-not-measure'],
    ['3 denied everywhere and robots blocks', 'GPTBot', { robots: txt('User-agent: GPTBot\nDisallow: /\n'), agent: (t) => (t === 'GPTBot' ? forbidden : undefined) }, 'blocked-consistent', 'measured'],
    ['4 denied everywhere', 'GPTBot', { agent: (t) => (t === 'GPTBot' ? challenge : undefined) }, 'denied', 'measured'],
    ['4 denied on the only decided network', 'GPTBot', { agent: (t, n) => (t === 'GPTBot' ? (n === 'networkA' ? forbidden : { error: 'RESET' }) : undefined) }, 'denied', 'measured'],
    ['5 passed with under half the text', 'GPTBot', { home: long, agent: (t) => (t === 'GPTBot' ? { body: htmlPage({ text: 'Short.' }) } : undefined) }, 'reduced-content', 'measured'],
    ['5 not when the control text is short', 'GPTBot', { agent: (t) => (t === 'GPTBot' ? { body: htmlPage({ text: 'Short.' }) } : undefined), home: { body: htmlPage({ text: 'Tiny page.' }) } }, 'pass', 'measured'],
    ['6 passed everywhere', 'GPTBot', {}, 'pass', 'measured'],
    ['7 the networks disagree', 'GPTBot', { agent: (t, n) => (t === 'GPTBot' && n === 'networkB' ? forbidden : undefined) }, 'inconclusive', 'measured'],
  ];
  for (const [name, token, given, verdict, measurement] of table) {
    test(`matrix rule ${name} -> ${verdict}`, () => {
      const row = evidence(given).rows.find((r) => r.agent.token === token)!;
      assert.equal(row.entry.verdict, verdict, row.entry.notes.join(' | '));
      assert.equal(row.entry.measurement, measurement);
      if (verdict === 'not-probeable') assert.equal(row.entry.edgeDoes, null);
    });
  }
});

describe('headline and confidence rules (first match wins)', () => {
  const llms = { body: '# Shop\n\n> x\n', headers: { 'content-type': 'text/plain' } };
  const table: Array<[string, BaselineOptions, Headline, 'high' | 'medium' | 'low', boolean]> = [
    ['1 agent-hostile: every allowed agent denied on both networks', { agent: () => challenge }, 'agent-hostile', 'high', true],
    ['1 not hostile when one allowed agent passes', { agent: (t) => (t === 'GPTBot' ? undefined : challenge) }, 'partially-blocked', 'high', true],
    ['1 never hostile with only one usable network', { agent: () => challenge, control: (n) => (n === 'networkB' ? forbidden : undefined) }, 'partially-blocked', 'medium', false],
    ['2 contradictory: llms.txt yet a user agent is disallowed', { files: { '/llms.txt': llms }, robots: txt('User-agent: Claude-User\nDisallow: /\n') }, 'contradictory', 'high', true],
    ['2 contradictory: the invitation path itself is disallowed', { files: { '/llms.txt': llms }, robots: txt('User-agent: *\nDisallow: /llms.txt\n') }, 'contradictory', 'high', true],
    ['2 not contradictory when only training agents are disallowed', { files: { '/llms.txt': llms }, robots: txt('User-agent: GPTBot\nDisallow: /\n') }, 'open', 'high', true],
    ['2 hostility outranks contradiction', { files: { '/llms.txt': llms }, robots: txt('User-agent: Claude-User\nDisallow: /\n'), agent: () => challenge }, 'agent-hostile', 'high', true],
    ['3 unknown: no usable network', { control: () => ({ error: 'TIMEOUT' }) }, 'unknown', 'low', false],
    ['3 unknown: usable, but no decided cell', { agent: () => ({ status: 500, body: 'x' }) }, 'unknown', 'low', false],
    ['4 partially-blocked: one denial', { agent: (t) => (t === 'CCBot' ? forbidden : undefined) }, 'partially-blocked', 'high', true],
    ['4 partially-blocked even when robots.txt agrees', { robots: txt('User-agent: CCBot\nDisallow: /\n'), agent: (t) => (t === 'CCBot' ? forbidden : undefined) }, 'partially-blocked', 'high', true],
    ['5 open', {}, 'open', 'high', true],
    ['confidence medium when robots.txt is unknown', { robots: { status: 503, body: '' } }, 'open', 'medium', true],
    ['confidence low when the networks disagree', { agent: (t, n) => (USER.includes(t) && n === 'networkA' ? forbidden : undefined) }, 'partially-blocked', 'low', true],
    ['confidence low when fewer than 3 agents decided', { agent: (t) => (t === 'GPTBot' || t === 'CCBot' ? undefined : { error: 'RESET' }) }, 'open', 'low', true],
  ];
  for (const [name, given, headline, confidence, confirmed] of table) {
    test(`headline rule ${name} -> ${headline} (${confidence})`, () => {
      const h = decideHeadline(evidence(given));
      assert.equal(h.headline, headline, h.reasons.join(' | '));
      assert.equal(h.confidence, confidence, h.confidenceNote);
      assert.equal(h.vantagesConfirmed, confirmed);
      for (const r of h.reasons) assert.doesNotMatch(r, /\b(is|are) blocked\b/);
    });
  }
  test('headline reasons name agents, networks and vendors in plain words', () => {
    const h = decideHeadline(evidence({ agent: () => ({ ...challenge, headers: { ...challenge.headers, server: 'cloudflare' } }) }));
    assert.match(h.reasons[0]!, /requests identifying as them from both cloud networks were challenged \(edge: Cloudflare\)/);
    assert.ok(SCORED.slice(0, 3).every((t) => h.reasons[0]!.includes(t)));
  });
});
