// Standard: edge access for AI search crawlers (verdicts.md; OAI-SearchBot, Claude-SearchBot, PerplexityBot vendor docs).
import { ALL, accessOver, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'access.search-agents', name: 'AI search crawlers reach the page', category: 'access', weight: 10, profiles: ALL, since: 'rubric-v1.0',
  standard: 'Edge behaviour for AI search crawlers (verdicts.md); vendor documentation of OAI-SearchBot, Claude-SearchBot, PerplexityBot, Applebot',
  why: 'AI search indexes decide whether the site is cited in answers; an edge that refuses them hides the site.',
  fix: 'Allow the search category of AI crawlers in the bot-management product (for example a "Search" policy) and keep robots.txt as the place to opt out.',
  evaluate: (ev) => accessOver(ev, ['search'], 2, 'search crawlers'),
};
