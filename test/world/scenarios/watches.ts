// Sites whose behaviour a test changes while the world runs (world.update), for watches and
// comparisons: declared in their first state, which the scenario test checks like any other.
import type { Scenario } from '../site.ts';
import { SCORED, all } from './tokens.ts';

/** The edge rule a test adds to `watched-shop` between two scans: GPTBot gets a plain 403, as a WAF rule would give it. */
export const BLOCK_GPTBOT = [{ who: ['GPTBot'], paths: ['/'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } }] as const;

export const WATCH_SCENARIOS: Scenario[] = [
  {
    name: 'watched-shop', about: 'An open shop whose edge a test can make block GPTBot (BLOCK_GPTBOT) or whose robots.txt it can change between two scans.',
    robots: 'User-agent: *\nAllow: /\n\nSitemap: https://{domain}/sitemap.xml\n',
    expect: { headline: 'open', vantagesConfirmed: true, verdicts: all(SCORED, 'pass'), edge: { control: ['pass', 'pass'], GPTBot: ['pass', 'pass'] }, robotsSays: { GPTBot: 'allowed' } },
  },
];
