// Standard: RFC 9309 §2.2.2 (allow and disallow lines) for the search and user-fetch agents of the roster.
import { ALL, inconclusive, meanThousandths, partial, type CheckDefinition } from './define.ts';

const VALUE = { allowed: 1000, partial: 750, blocked: 0 } as const;

export const check: CheckDefinition = {
  id: 'policy.search-user-allowed', name: 'robots.txt lets AI search and user agents in', category: 'policy', weight: 8, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309 §2.2.2; vendor robots.txt tokens (the roster)',
  why: 'Disallowing search and user-triggered agents removes the site from AI answers; many such blocks are accidental (a blanket "Disallow: /", a copied block list, Applebot inheriting a Googlebot block).',
  fix: 'Add explicit Allow groups for the search and user agents you want, and keep training opt-outs in their own groups.',
  evaluate(ev) {
    if (ev.robots.state === 'unknown') return inconclusive(`robots.txt could not be read: ${ev.robots.reason}`);
    const rows = ev.rows.filter((r) => !r.agent.contextOnly && (r.agent.intent === 'search' || r.agent.intent === 'user-fetch'));
    const values = rows.map((r): number | undefined => (r.robots.says === 'unknown' ? undefined : VALUE[r.robots.says])).filter((v): v is number => v !== undefined);
    if (!values.length) return inconclusive('no search or user agent could be judged');
    const blocked = rows.filter((r) => r.robots.says === 'blocked').map((r) => r.agent.token);
    return partial(meanThousandths(values), blocked.length ? `robots.txt disallows / for ${blocked.join(', ')}` : `${values.length} search and user agents may fetch /`);
  },
};
