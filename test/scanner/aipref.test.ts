// robots.txt training-preference groups (draft-kelley-aipref-training-preference-signal-00): read as
// preferences, and never matched as an agent by the rubric-v1.1 matcher (issue 37 item 4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import { ROSTER_VERSION } from '../../src/scanner/versions.ts';
import { usageGroups } from '../../src/scanner/aipref.ts';
import { check as v11 } from '../../src/scanner/checks/policy.training-preference.ts';
import { check as preview } from '../../src/scanner/checks/revised/policy.training-preference.ts';
import { evidence } from './fixtures.ts';

const file = (body: string) => readRobots({ ok: true, status: 200, contentType: 'text/plain', body, edgeOutcome: 'pass' });

test('a training-preference group is no agent: every roster agent gets what it would without it', () => {
  const cases = [
    ['only the usage group', 'User-agent: __usage_ai-training\nDisallow: /\n', ''],
    ['usage group and a wildcard group', 'User-agent: *\nAllow: /\nDisallow: /private/\n\nUser-agent: __usage_ai-training\nDisallow: /\n', 'User-agent: *\nAllow: /\nDisallow: /private/\n'],
    ['usage groups for several categories between crawler groups', 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: __usage_ai-training\nUser-agent: __usage_search\nDisallow: /\n\nUser-agent: *\nAllow: /\n', 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'],
  ] as const;
  for (const [name, withGroup, without] of cases) {
    const a = file(withGroup);
    const b = file(without);
    for (const agent of getRoster(ROSTER_VERSION)) {
      for (const path of ['/', '/private/x']) assert.deepEqual(robotsSays(a, agent, path).says, robotsSays(b, agent, path).says, `${name}: ${agent.token} ${path}`);
    }
    assert.ok(!a.namedAgents.some((t) => t.startsWith('__usage_')), `${name}: not counted as a named agent`);
  }
});

test('usage groups are read with their category, rule and line', () => {
  const f = file('User-agent: *\nAllow: /\n\n# training preference\nUser-agent: __usage_ai-training\nDisallow: /\n\nUser-agent: __usage_search\nAllow: /\n\nUser-agent: __Usage_Future-Thing\nDisallow: /a/\n');
  assert.deepEqual(usageGroups(f).map((g) => [g.token, g.use ?? null, g.line, g.says, g.ruleLine]), [
    ['__usage_ai-training', 'training', 5, 'refused', 6],
    ['__usage_search', 'search', 8, 'allowed', 9],
    ['__usage_future-thing', null, 11, 'partial', 12],
  ]);
  assert.deepEqual(usageGroups(file('')), []);
});

test('rubric-v1.1 policy.training-preference is unchanged by a usage group (it stays a fail); the preview revision passes and names the draft', () => {
  const ev = evidence({ robots: { body: 'User-agent: *\nAllow: /\n\nUser-agent: __usage_ai-training\nDisallow: /\n', headers: { 'content-type': 'text/plain' } } });
  assert.equal(v11.evaluate(ev).status, 'fail');
  const out = preview.evaluate(ev);
  assert.equal(out.status, 'pass');
  assert.match(out.detail, /robots\.txt line 4 \(User-agent: __usage_ai-training, draft-kelley-aipref-training-preference-signal-00\) refuses AI training/);
});
