// Standard: RFC 9309 §2.3 (access method) and §2.3.1 (status codes).
import { ALL, fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

const DENIED = new Set(['challenge', 'block', 'rate-limited', 'auth']);

export const check: CheckDefinition = {
  id: 'policy.robots-reachable', name: 'robots.txt is served as text to everyone', category: 'policy', weight: 6, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309 §2.3.1 (robots.txt status codes)',
  why: 'Every crawler reads robots.txt first; under RFC 9309 a 5xx means "disallow everything", and a challenged robots.txt cannot be read at all.',
  fix: 'Serve /robots.txt as a static text/plain file and exempt it from bot challenges and rate limits.',
  evaluate(ev) {
    const b = ev.robotsFetch;
    const netOk = ev.controls[b.record.network].outcome === 'pass';
    if (!b.ok) return inconclusive(`robots.txt request failed in transport (${b.record.errorCode})`);
    if (DENIED.has(b.outcome)) return netOk ? fail(`robots.txt met a ${b.outcome} (HTTP ${b.status}) for a browser`) : inconclusive('the network could not load the site as a browser either');
    if (b.status >= 500) return fail(`robots.txt answered ${b.status}; RFC 9309 crawlers must then assume everything is disallowed`);
    if (b.status >= 400) return partial(500, `robots.txt answered ${b.status}: crawlers may fetch everything, but the site states no policy`);
    if (ev.robots.state !== 'parsed') return fail(ev.robots.reason);
    const a = ev.robotsAgentFetch;
    if (a.ok && DENIED.has(a.outcome)) return fail(`robots.txt is served to browsers but met a ${a.outcome} (HTTP ${a.status}) for ${a.record.userAgent.includes('ChatGPT-User') ? 'ChatGPT-User' : 'an agent user-agent'}`);
    return pass(`robots.txt served as text (HTTP ${b.status})`);
  },
};
