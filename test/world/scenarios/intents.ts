// Grading by intent (issue 36 item 7): one site that turns training crawlers away in robots.txt
// and at its (Cloudflare) edge, scanned with intents that match it and with intents that do not.
// The site is the same under each name; only `scan.intent` and the expected `report.intent` differ
// (test/scanner/intent-world.test.ts also scans one name with each intent and checks that the
// score, checks, headline and matrix do not move).
import { getRoster } from '../../../src/scanner/roster.ts';
import type { Expectation, Scenario } from '../site.ts';
import { cloudflare } from '../vendors.ts';
import { TRAIN, USER, all } from './tokens.ts';

/** Every training token of the roster, token-only ones (Google-Extended, ...) included: robots.txt is how those opt out. */
const TRAINING_TOKENS = getRoster().filter((a) => a.intent === 'training').map((a) => a.token);
const ROBOTS = `User-agent: *\nAllow: /\n\n${TRAINING_TOKENS.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n\nSitemap: https://{domain}/sitemap.xml\n`;

/** The site, under any name. Fidelity: built around Cloudflare's documented 1020 block (test/world/vendors.ts). */
function site(name: string): Omit<Scenario, 'expect' | 'scan' | 'about'> {
  return { name, presence: cloudflare.presence, robots: ROBOTS, edge: [{ who: TRAIN, paths: ['/'], respond: cloudflare.block1020() }] };
}

/** What the matrix says whatever the intent (the same as cf-block-training's). */
const BASE: Expectation = { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'blocked-consistent' as const), ...all(USER, 'pass' as const) }, robotsSays: { GPTBot: 'blocked', 'Google-Extended': 'blocked', CCBot: 'allowed' } };

const CRAWL_CONTROL = 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/';

export const INTENT_SCENARIOS: Scenario[] = [
  {
    ...site('intent-as-asked'),
    about: 'Training crawlers blocked in robots.txt and by Cloudflare; the owner asked for exactly that (training=block, search=allow, user-fetch=allow).',
    scan: { intent: { training: 'block', search: 'allow', 'user-fetch': 'allow' } },
    expect: {
      ...BASE,
      intent: {
        met: 3, decided: 3,
        roles: {
          training: { asIntended: true, robotsSays: 'block', edgeDoes: 'block', missed: [], fix: null },
          search: { asIntended: true, robotsSays: 'allow', edgeDoes: 'allow', missed: [], fix: null },
          'user-fetch': { asIntended: true, robotsSays: 'allow', edgeDoes: 'allow', missed: [], fix: null },
        },
      },
    },
  },
  {
    ...site('intent-not-as-asked'),
    about: 'The same site; the owner asked to let training crawlers in and to turn archive crawlers away, which neither robots.txt nor the edge does.',
    scan: { intent: { training: 'allow', archive: 'block' } },
    expect: {
      ...BASE,
      intent: {
        met: 0, decided: 2,
        roles: {
          training: {
            asIntended: false, robotsSays: 'block', edgeDoes: 'block', missed: TRAINING_TOKENS,
            fix: {
              text: /^You asked for training crawlers to be let in\. robots\.txt does not allow GPTBot, .* The edge turns away GPTBot, .* Cloudflare: In AI Crawl Control → Crawlers set GPTBot, .* to Allow/,
              platform: 'cloudflare', docUrl: CRAWL_CONTROL, robotsTxt: `${TRAINING_TOKENS.map((t) => `User-agent: ${t}`).join('\n')}\nAllow: /`,
            },
          },
          archive: {
            asIntended: false, robotsSays: 'allow', edgeDoes: 'allow', missed: ['CCBot', 'archive.org_bot', 'ia_archiver'],
            fix: {
              text: /^You asked for archive crawlers to be turned away\. robots\.txt does not disallow CCBot, archive\.org_bot and ia_archiver: .* The edge lets in CCBot and archive\.org_bot\. Cloudflare: In AI Crawl Control → Crawlers set CCBot and archive\.org_bot to Block/,
              platform: 'cloudflare', docUrl: CRAWL_CONTROL, robotsTxt: 'User-agent: CCBot\nUser-agent: archive.org_bot\nUser-agent: ia_archiver\nDisallow: /',
            },
          },
        },
      },
    },
  },
  {
    ...site('intent-charge-training'),
    about: 'The same site; the owner asked to charge training crawlers: robots.txt keeps them out and the edge answers 403, not 402, so the fix names pay per crawl.',
    scan: { intent: { training: 'charge' } },
    expect: {
      ...BASE,
      intent: {
        met: 0, decided: 1,
        roles: {
          training: {
            // Token-only training agents (Google-Extended, ...) send nothing that could be answered 402: not judged for a charge.
            asIntended: false, robotsSays: 'block', edgeDoes: 'block', missed: TRAIN,
            fix: {
              text: /^You asked for training crawlers to be charged\. robots\.txt does not allow GPTBot, .* The edge turns away GPTBot, .*\. Cloudflare: Turn on pay per crawl .* set GPTBot, .* to Charge; Cloudflare then answers them 402/,
              platform: 'cloudflare', docUrl: 'https://developers.cloudflare.com/ai-crawl-control/features/pay-per-crawl/', robotsTxt: `${TRAIN.map((t) => `User-agent: ${t}`).join('\n')}\nAllow: /`,
            },
          },
        },
      },
    },
  },
  {
    ...site('intent-none'),
    about: 'The same site scanned without an intent: the report carries no intent field.',
    expect: { ...BASE, intent: null },
  },
];
