// Standard: RFC 9309 user-agent groups per AI role; Content Signals (contentsignals.org); IETF aipref Content-Usage.
import { ALL, fail, inconclusive, partial, type CheckDefinition } from './define.ts';
import { contentSignals } from '../features.ts';

export const check: CheckDefinition = {
  id: 'policy.ai-rules-explicit', name: 'robots.txt states a policy per AI role', category: 'policy', weight: 4, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309 groups; Content Signals Policy; draft-ietf-aipref-attach (Content-Usage)',
  why: 'An explicit stance per role (user-triggered, search, training) removes guesswork for every agent and for the people reading the file.',
  fix: 'Add a group for at least one agent of each role, or declare Content-Signal search=, ai-input= and ai-train= values.',
  evaluate(ev) {
    if (ev.robots.state === 'unknown') return inconclusive(`robots.txt could not be read: ${ev.robots.reason}`);
    const named = new Set(ev.robots.namedAgents);
    const signals = contentSignals(ev).map((s) => s.value.toLowerCase()).join(',');
    const usage = ev.robots.extensions.some((e) => e.field === 'content-usage');
    const roles = {
      'user-fetch': ev.roster.some((a) => a.intent === 'user-fetch' && named.has(a.token.toLowerCase())) || /ai-input\s*=/.test(signals),
      search: ev.roster.some((a) => a.intent === 'search' && named.has(a.token.toLowerCase())) || /(^|,)\s*search\s*=/.test(signals),
      training: ev.roster.some((a) => (a.intent === 'training' || a.intent === 'archive') && named.has(a.token.toLowerCase())) || /ai-train\s*=/.test(signals) || usage,
    };
    const covered = Object.entries(roles).filter(([, v]) => v).map(([k]) => k);
    if (!covered.length) return fail(ev.robots.state === 'none' ? 'there is no robots.txt' : 'robots.txt names no AI agent and carries no usage signal');
    return partial(Math.floor((1000 * covered.length) / 3), `explicit for: ${covered.join(', ')}`);
  },
};
