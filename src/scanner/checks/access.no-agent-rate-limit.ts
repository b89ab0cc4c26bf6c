// Standard: RFC 6585 §4 (429 Too Many Requests) applied to a single request.
import { ALL, fail, inconclusive, pass, rowsOf, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'access.no-agent-rate-limit', name: 'No rate limit on a single agent request', category: 'access', weight: 2, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 6585 §4 (429 Too Many Requests)',
  why: 'A single polite request should never trip a rate limit; a 429 keyed on the user-agent is a block in disguise.',
  fix: 'Key rate limits on behaviour (request rate), not on the user-agent, and raise limits for verified agents.',
  evaluate(ev) {
    const rows = rowsOf(ev, ['user-fetch', 'search', 'training', 'archive']).filter((r) => r.decided.length > 0);
    if (rows.length === 0) return inconclusive('no agent request could be decided');
    const limited = rows.filter((r) => r.decided.some((n) => r.entry.edgeDoes?.[n] === 'rate-limited')).map((r) => r.agent.token);
    return limited.length ? fail(`rate-limited on the first request: ${limited.join(', ')}`) : pass(`no decided agent request was rate-limited (${rows.length} agents)`);
  },
};
