// Standard: edge access for user-triggered fetchers (verdicts.md edge outcomes; vendor docs on ChatGPT-User, Claude-User, Perplexity-User).
import { ALL, accessOver, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'access.user-agents', name: 'User-triggered agents reach the page', category: 'access', weight: 10, profiles: ALL, since: 'rubric-v1.0',
  standard: 'Edge behaviour for user-triggered fetchers (verdicts.md); vendor documentation of ChatGPT-User, Claude-User, Perplexity-User',
  why: 'User-triggered fetchers are how assistants read a page a person asked about; turning them away removes the site from those answers.',
  fix: 'In the WAF or bot product, allow (or skip challenges for) the user-fetch agents you want, preferably through verified-bot or IP-list rules rather than user-agent blocks.',
  evaluate: (ev) => accessOver(ev, ['user-fetch'], 2, 'user-triggered agents'),
};
