// Denial patterns built for the probable-cause table (src/scanner/causes.ts): the Cloudflare
// role-based default, the same shape behind another vendor, a pattern that only looks like the
// default, a rule on one user-agent, and a network whose addresses are blocked outright.
import type { Scenario } from '../site.ts';
import { akamai, cloudflare } from '../vendors.ts';
import { ARCHIVE, SEARCH, TRAIN, USER, all } from './tokens.ts';

const plain403 = { status: 403, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>403 Forbidden</h1></body></html>' };

export const CAUSE_SCENARIOS: Scenario[] = [
  {
    name: 'cf-role-default', about: 'Cloudflare blocks training, archive and user-fetch agents and lets search crawlers through, as its 2026 default does.',
    presence: cloudflare.presence, edge: [{ who: [...TRAIN, ...USER, ...ARCHIVE], paths: ['/'], respond: cloudflare.block1020() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'denied'), ...all(USER, 'denied'), ...all(SEARCH, 'pass') } },
  },
  {
    name: 'akamai-role-rule', about: 'Akamai blocks the same roles as the Cloudflare default: a role rule, not Cloudflare\'s default.',
    presence: akamai.presence, edge: [{ who: [...TRAIN, ...USER, ...ARCHIVE], paths: ['/'], respond: akamai.block() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'denied'), ...all(SEARCH, 'pass') } },
  },
  {
    name: 'cf-looks-like-default', about: 'Cloudflare blocks training and search crawlers but lets user-fetch agents through: only looks like the default.',
    presence: cloudflare.presence, edge: [{ who: [...TRAIN, ...SEARCH, ...ARCHIVE], paths: ['/'], respond: cloudflare.block1020() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'denied'), ...all(SEARCH, 'denied'), ...all(USER, 'pass') } },
  },
  {
    name: 'one-agent-rule', about: 'A plain 403 for GPTBot alone; every other agent receives the page.',
    edge: [{ who: ['GPTBot'], paths: ['/'], respond: plain403 }],
    expect: { headline: 'partially-blocked', verdicts: { GPTBot: 'denied', ClaudeBot: 'pass' } },
  },
  {
    name: 'wba-signed-only', about: 'Cloudflare challenges agent-readiness\'s unsigned request but lets the Web Bot Auth-signed one through.',
    presence: cloudflare.presence, signedOnly: cloudflare.challenge(),
    expect: { headline: 'open' },
  },
  {
    name: 'netb-reputation', about: 'networkB\'s addresses get a 403 for everything, the browser included; networkA is served.',
    edge: [{ who: 'all', networks: ['networkB'], respond: plain403 }],
    expect: { headline: 'open', edge: { control: ['pass', 'block'] } },
  },
];
