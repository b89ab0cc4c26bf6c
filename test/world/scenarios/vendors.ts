// One or more scenarios per edge vendor of domain-facts.md §2.1, including 200-status interstitials.
import type { Scenario } from '../site.ts';
import { akamai, awsWaf, azureFrontDoor, cloudflare, datadome, f5, fastly, human, imperva, kasada, payPerCrawl, sucuri, vercel } from '../vendors.ts';
import { SCORED, TRAIN, USER, SEARCH, all } from './tokens.ts';

export const VENDOR_SCENARIOS: Scenario[] = [
  {
    name: 'f5-request-rejected-200', about: 'F5 BIG-IP ASM "Request Rejected" page with status 200 for every agent; browsers pass.',
    edge: [{ who: 'agents', paths: ['/'], respond: f5.requestRejected200() }],
    expect: { headline: 'agent-hostile', vantagesConfirmed: true, verdicts: all(SCORED, 'denied'), edge: { control: ['pass', 'pass'], GPTBot: ['block', 'block'], 'ChatGPT-User': ['block', 'block'] }, vendors: { GPTBot: ['f5'], ClaudeBot: ['f5'] } },
  },
  {
    name: 'cf-pay-per-crawl', about: 'Cloudflare pay per crawl: training crawlers get 402 with crawler-price; everyone else passes.',
    presence: cloudflare.presence, edge: [{ who: TRAIN, paths: ['/'], respond: payPerCrawl.offer() }],
    expect: {
      headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'denied'), ...all(USER, 'pass') }, edge: { GPTBot: ['auth', 'auth'], ClaudeBot: ['auth', 'auth'] },
      previewChecks: { 'access.payment-offers': ['pass', 'Cloudflare pay per crawl'] },
    },
  },
  {
    name: 'cf-agents-challenged', about: 'Cloudflare challenges every agent on both networks; browsers pass; robots.txt allows all.',
    presence: cloudflare.presence, edge: [{ who: 'agents', paths: ['/'], respond: cloudflare.challenge() }],
    expect: { headline: 'agent-hostile', vantagesConfirmed: true, confidence: 'high', verdicts: all(SCORED, 'denied'), edge: { control: ['pass', 'pass'], GPTBot: ['challenge', 'challenge'] }, vendors: { 'ChatGPT-User': ['cloudflare'] } },
  },
  {
    name: 'cf-challenge-200', about: 'Cloudflare managed challenge served with status 200 to user-triggered agents only.',
    presence: cloudflare.presence, edge: [{ who: USER, paths: ['/'], respond: cloudflare.challenge200() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(USER, 'denied'), GPTBot: 'pass', PerplexityBot: 'pass' }, edge: { 'Claude-User': ['challenge', 'challenge'], ClaudeBot: ['pass', 'pass'] }, vendors: { 'Claude-User': ['cloudflare'] } },
  },
  {
    name: 'cf-block-training', about: 'Cloudflare 1020 firewall block for training crawlers, which robots.txt also disallows.',
    presence: cloudflare.presence,
    robots: `User-agent: *\nAllow: /\n\n${TRAIN.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`,
    edge: [{ who: TRAIN, paths: ['/'], respond: cloudflare.block1020() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'blocked-consistent'), ...all(USER, 'pass') }, edge: { GPTBot: ['block', 'block'] }, robotsSays: { GPTBot: 'blocked', 'OAI-SearchBot': 'allowed' }, checks: { 'access.training-consistency': 'pass', 'access.user-agents': 'pass' } },
  },
  {
    name: 'cf-rate-limit', about: 'Cloudflare rate-limits (1015, 429) PerplexityBot on its first request.',
    presence: cloudflare.presence, edge: [{ who: ['PerplexityBot'], paths: ['/'], respond: cloudflare.rateLimit1015() }],
    expect: { headline: 'partially-blocked', verdicts: { PerplexityBot: 'denied', GPTBot: 'pass' }, edge: { PerplexityBot: ['rate-limited', 'rate-limited'] }, checks: { 'access.no-agent-rate-limit': 'fail' } },
  },
  {
    name: 'akamai-block', about: 'Akamai "Access Denied, Reference #18" for every agent.',
    presence: akamai.presence, presenceCookies: akamai.presenceCookies, edge: [{ who: 'agents', respond: akamai.block() }],
    expect: { headline: 'agent-hostile', verdicts: all(SCORED, 'denied'), edge: { CCBot: ['block', 'block'] }, vendors: { CCBot: ['akamai'] }, checks: { 'policy.robots-reachable': 'fail' } },
  },
  {
    name: 'akamai-challenge-200', about: 'Akamai Bot Manager behavioural challenge with status 200 for every agent.',
    presence: akamai.presence, edge: [{ who: 'agents', paths: ['/'], respond: akamai.challenge200() }],
    expect: { headline: 'agent-hostile', edge: { 'Amzn-User': ['challenge', 'challenge'] }, vendors: { 'Amzn-User': ['akamai'] } },
  },
  {
    name: 'imperva-interstitial', about: 'Imperva _Incapsula_Resource interstitial (status 200) for every agent.',
    presence: imperva.presence, presenceCookies: imperva.presenceCookies, edge: [{ who: 'agents', paths: ['/'], respond: imperva.interstitial200() }],
    expect: { headline: 'agent-hostile', edge: { 'MistralAI-User': ['challenge', 'challenge'] }, vendors: { 'MistralAI-User': ['imperva'] } },
  },
  {
    name: 'imperva-block-search', about: 'Imperva incident page (403) for AI search crawlers only.',
    presence: imperva.presence, edge: [{ who: SEARCH, paths: ['/'], respond: imperva.block() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(SEARCH, 'denied'), ...all(USER, 'pass') }, vendors: { PerplexityBot: ['imperva'] }, checks: { 'access.search-agents': 'fail', 'access.user-agents': 'pass' } },
  },
  {
    name: 'datadome-captcha', about: 'DataDome slider captcha for every agent.',
    presence: datadome.presence, edge: [{ who: 'agents', paths: ['/'], respond: datadome.challenge() }],
    expect: { headline: 'agent-hostile', edge: { Bytespider: ['challenge', 'challenge'] }, vendors: { Bytespider: ['datadome'] } },
  },
  {
    name: 'human-press-hold', about: 'HUMAN (PerimeterX) Press & Hold for user-triggered agents.',
    presenceCookies: human.presenceCookies, edge: [{ who: USER, paths: ['/'], respond: human.challenge() }],
    expect: { headline: 'partially-blocked', verdicts: all(USER, 'denied'), edge: { 'Perplexity-User': ['challenge', 'challenge'] }, vendors: { 'Perplexity-User': ['human'] } },
  },
  {
    name: 'human-block', about: 'HUMAN automation-tools deny page for every agent.',
    edge: [{ who: 'agents', paths: ['/'], respond: human.block() }],
    expect: { headline: 'agent-hostile', edge: { DuckAssistBot: ['block', 'block'] }, vendors: { DuckAssistBot: ['human'] } },
  },
  {
    name: 'aws-waf-challenge', about: 'AWS WAF challenge action (202, x-amzn-waf-action) for every agent.',
    presence: awsWaf.presence, edge: [{ who: 'agents', paths: ['/'], respond: awsWaf.challenge() }],
    expect: { headline: 'agent-hostile', edge: { GPTBot: ['challenge', 'challenge'] }, vendors: { GPTBot: ['aws-waf'] } },
  },
  {
    name: 'aws-waf-captcha', about: 'AWS WAF CAPTCHA (405) for training crawlers only.',
    presence: awsWaf.presence, edge: [{ who: TRAIN, paths: ['/'], respond: awsWaf.captcha() }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(TRAIN, 'denied'), ...all(USER, 'pass') }, edge: { ClaudeBot: ['challenge', 'challenge'] }, checks: { 'access.training-consistency': 'fail' } },
  },
  {
    name: 'aws-cloudfront-split', about: 'CloudFront blocks agents on networkB only: the networks disagree.',
    presence: awsWaf.presence, edge: [{ who: 'agents', networks: ['networkB'], paths: ['/'], respond: awsWaf.block() }],
    expect: { headline: 'partially-blocked', confidence: 'low', verdicts: all(SCORED, 'inconclusive'), edge: { GPTBot: ['pass', 'block'] }, vendors: { GPTBot: ['aws-waf'] } },
  },
  {
    name: 'vercel-checkpoint', about: 'Vercel Security Checkpoint (429 + x-vercel-mitigated: challenge) for every agent.',
    presence: vercel.presence, edge: [{ who: 'agents', paths: ['/'], respond: vercel.challenge() }],
    expect: { headline: 'agent-hostile', edge: { 'Google-Agent': ['challenge', 'challenge'] }, vendors: { 'Google-Agent': ['vercel'] } },
  },
  {
    name: 'vercel-deny', about: 'Vercel firewall deny (x-vercel-mitigated: deny) for Bytespider and Diffbot.',
    presence: vercel.presence, edge: [{ who: ['Bytespider', 'Diffbot'], paths: ['/'], respond: vercel.deny() }],
    expect: { headline: 'partially-blocked', verdicts: { Bytespider: 'denied', Diffbot: 'denied', GPTBot: 'pass' }, edge: { Diffbot: ['block', 'block'] } },
  },
  {
    name: 'vercel-login-agents', about: 'Agents are redirected to a sign-in host (Deployment-Protection style); browsers pass.',
    presence: vercel.presence, edge: [{ who: USER, paths: ['/'], respond: vercel.login('https://login.world-fixtures.com/sso?next=/') }],
    expect: { headline: 'partially-blocked', verdicts: all(USER, 'denied'), edge: { 'ChatGPT-User': ['auth', 'auth'] } },
  },
  {
    name: 'fastly-406', about: 'Fastly Next-Gen WAF default block (406) for training crawlers.',
    presence: fastly.presence, edge: [{ who: TRAIN, paths: ['/'], respond: fastly.block406() }],
    expect: { headline: 'partially-blocked', verdicts: all(TRAIN, 'denied'), edge: { 'meta-externalagent': ['block', 'block'] }, vendors: { 'meta-externalagent': ['fastly'] } },
  },
  {
    name: 'fastly-rate-limit', about: 'Fastly answers 429 to every agent on both networks.',
    presence: fastly.presence, edge: [{ who: 'agents', paths: ['/'], respond: fastly.rateLimit() }],
    expect: { headline: 'agent-hostile', edge: { YouBot: ['rate-limited', 'rate-limited'] }, vendors: { YouBot: ['fastly'] } },
  },
  {
    name: 'sucuri-block', about: 'Sucuri firewall deny (x-sucuri-block) for every agent.',
    presence: sucuri.presence, edge: [{ who: 'agents', paths: ['/'], respond: sucuri.block() }],
    expect: { headline: 'agent-hostile', edge: { 'archive.org_bot': ['block', 'block'] }, vendors: { 'archive.org_bot': ['sucuri'] } },
  },
  {
    name: 'sucuri-block-200', about: 'A Sucuri deny page served with status 200 to user-triggered agents.',
    presence: sucuri.presence, edge: [{ who: USER, paths: ['/'], respond: sucuri.block200() }],
    expect: { headline: 'partially-blocked', verdicts: all(USER, 'denied'), edge: { 'meta-externalfetcher': ['block', 'block'] } },
  },
  {
    name: 'kasada-429', about: 'Kasada answers agents with 429 plus x-kpsdk headers: a challenge, not a rate limit.',
    edge: [{ who: 'agents', paths: ['/'], respond: kasada.challenge() }],
    expect: { headline: 'agent-hostile', edge: { 'ChatGPT-User': ['challenge', 'challenge'] }, vendors: { 'ChatGPT-User': ['kasada'] }, checks: { 'access.no-agent-rate-limit': 'pass' } },
  },
  {
    name: 'azure-front-door', about: 'Azure Front Door WAF default block page for search crawlers.',
    presence: azureFrontDoor.presence, edge: [{ who: SEARCH, paths: ['/'], respond: azureFrontDoor.block() }],
    expect: { headline: 'partially-blocked', verdicts: all(SEARCH, 'denied'), edge: { 'Claude-SearchBot': ['block', 'block'] }, vendors: { 'Claude-SearchBot': ['azure-front-door'] } },
  },
];
