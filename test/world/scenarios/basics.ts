// Headlines, measurement limits and robots.txt cases that involve no particular vendor.
import type { Scenario } from '../site.ts';
import { htmlPage, LOREM } from '../site.ts';
import { SCORED, USER, SEARCH, all } from './tokens.ts';

const teaser = htmlPage({ text: 'Subscribe to read more.' });

export const BASIC_SCENARIOS: Scenario[] = [
  {
    name: 'open-basic', about: 'A plain site: everyone gets the page, robots.txt allows all.',
    expect: { headline: 'open', vantagesConfirmed: true, confidence: 'high', profile: 'general', verdicts: { ...all(SCORED, 'pass'), 'Google-Extended': 'not-probeable' }, edge: { control: ['pass', 'pass'], GPTBot: ['pass', 'pass'] }, robotsSays: { GPTBot: 'allowed', 'Google-Extended': 'allowed' }, checks: { 'access.user-agents': 'pass', 'content.server-rendered': 'pass', 'policy.sitemap': 'pass', 'discovery.llms-txt': 'fail', 'discovery.api-catalog': 'skipped' } },
  },
  {
    name: 'generic-403-all-agents', about: 'A plain 403 (no vendor) for every agent on both networks.',
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } }],
    expect: { headline: 'agent-hostile', verdicts: all(SCORED, 'denied'), edge: { GPTBot: ['block', 'block'] }, vendors: { GPTBot: [] } },
  },
  {
    name: 'auth-401-agents', about: 'Agents get 401 with WWW-Authenticate; browsers pass.',
    edge: [{ who: [...USER, ...SEARCH], paths: ['/'], respond: { status: 401, headers: { 'www-authenticate': 'Basic realm="site"', 'content-type': 'text/plain' }, body: 'Unauthorized' } }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(USER, 'denied'), GPTBot: 'pass' }, edge: { 'Claude-SearchBot': ['auth', 'auth'] } },
  },
  {
    name: 'robots-blocks-all', about: 'robots.txt disallows everything and the edge agrees (403 for agents).',
    robots: 'User-agent: *\nDisallow: /\n',
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } }],
    expect: { headline: 'partially-blocked', verdicts: { ...all(SCORED, 'blocked-consistent'), 'Applebot-Extended': 'not-probeable' }, robotsSays: { GPTBot: 'blocked', 'Applebot-Extended': 'blocked' }, checks: { 'policy.search-user-allowed': 'fail', 'access.user-agents': 'inconclusive' } },
  },
  {
    name: 'robots-blocks-edge-open', about: 'robots.txt disallows AI training, the edge lets everyone in.',
    robots: 'User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    expect: { headline: 'open', verdicts: { GPTBot: 'pass', CCBot: 'pass', 'Google-Extended': 'not-probeable' }, robotsSays: { GPTBot: 'blocked', 'Google-Extended': 'blocked', ClaudeBot: 'allowed' }, checks: { 'policy.training-preference': 'pass' } },
  },
  {
    name: 'robots-partial', about: 'robots.txt keeps agents out of /private only; also a percent-encoded rule.',
    robots: 'User-agent: *\nDisallow: /private/\nDisallow: /%7Eadmin\n',
    expect: { headline: 'open', robotsSays: { GPTBot: 'partial', 'Claude-User': 'partial' }, verdicts: { GPTBot: 'pass' } },
  },
  {
    name: 'applebot-follows-googlebot', about: 'Only a Googlebot group disallows /: Applebot inherits it (Apple documents this).',
    robots: 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    expect: { headline: 'open', robotsSays: { Applebot: 'blocked', Googlebot: 'blocked', GPTBot: 'allowed' } },
  },
  {
    name: 'contradictory-llms', about: 'Publishes llms.txt but robots.txt disallows the user-triggered agents it invites.',
    robots: 'User-agent: ChatGPT-User\nUser-agent: Perplexity-User\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    files: { '/llms.txt': { type: 'text/markdown', body: '# Example Shop\n\n> Products and support.\n\n## Docs\n\n- [Prices](https://{domain}/prices): price list\n' } },
    expect: { headline: 'contradictory', verdicts: { 'ChatGPT-User': 'pass' }, robotsSays: { 'ChatGPT-User': 'blocked', 'Claude-User': 'allowed' }, profile: 'docs' },
  },
  {
    name: 'wordpress-nginx', about: 'A WordPress site on nginx (server header, generator meta) whose robots.txt disallows two AI search crawlers; no edge in front.',
    presence: { server: 'nginx/1.22.1' },
    home: htmlPage({ head: '<meta name="generator" content="WordPress 6.6.2">\n<link rel="stylesheet" href="/wp-content/themes/twentytwentyfour/style.css">' }),
    robots: 'User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nDisallow: /\n',
    expect: { headline: 'open', robotsSays: { 'OAI-SearchBot': 'blocked', 'Claude-User': 'partial' }, checks: { 'policy.search-user-allowed': 'pass', 'content.markdown-negotiation': 'fail' }, details: { 'policy.search-user-allowed': /OAI-SearchBot, PerplexityBot/ } },
  },
  {
    name: 'contradictory-signal', about: 'Content-Signal grants search while a search crawler is disallowed.',
    robots: 'User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\nUser-agent: OAI-SearchBot\nDisallow: /\n',
    expect: { headline: 'contradictory', robotsSays: { 'OAI-SearchBot': 'blocked' }, checks: { 'policy.usage-signals-valid': 'pass', 'policy.training-preference': 'pass' } },
  },
  {
    name: 'reduced-content', about: 'Agents get a teaser instead of the article the browser sees.',
    home: htmlPage({ text: `${LOREM} ${LOREM}` }),
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 200, headers: { 'content-type': 'text/html' }, body: teaser } }],
    expect: { headline: 'open', verdicts: all(SCORED, 'reduced-content'), edge: { GPTBot: ['pass', 'pass'] }, checks: { 'access.content-parity': 'fail' } },
  },
  {
    name: 'origin-503', about: 'The origin answers 503 to everyone: nothing can be measured.',
    edge: [{ who: 'all', paths: ['/'], respond: { status: 503, headers: { 'content-type': 'text/html', 'retry-after': '120' }, body: '<!doctype html><title>Maintenance</title><p>Back soon</p>' } }],
    expect: { headline: 'unknown', confidence: 'low', verdicts: all(SCORED, 'inconclusive'), edge: { control: ['origin-error', 'origin-error'], GPTBot: ['origin-error', 'origin-error'] } },
  },
  {
    name: 'agents-get-404', about: 'Agents get 404 on the home page: undecided, never held against the site.',
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 404, headers: { 'content-type': 'text/html' }, body: '<title>Not found</title>' } }],
    expect: { headline: 'unknown', verdicts: all(SCORED, 'inconclusive'), edge: { GPTBot: ['origin-error', 'origin-error'] }, checks: { 'access.user-agents': 'inconclusive' } },
  },
  {
    name: 'redirect-home', about: 'The home page redirects to /en/ (followed, guarded per hop); everyone gets the page there.',
    edge: [{ who: 'all', paths: ['/'], respond: { status: 301, location: 'https://{domain}/en/', body: '' } }],
    files: { '/en/': { type: 'text/html; charset=utf-8', body: htmlPage() } },
    expect: { headline: 'open', confidence: 'high', verdicts: all(SCORED, 'pass'), edge: { control: ['pass', 'pass'], 'Claude-User': ['pass', 'pass'] }, checks: { 'content.server-rendered': 'pass' } },
  },
  {
    name: 'redirect-loop', about: 'The home page redirects to itself forever.',
    edge: [{ who: 'all', paths: ['/', '/loop'], respond: { status: 302, location: 'https://{domain}/loop', body: '' } }],
    expect: { headline: 'unknown', edge: { control: ['transport-error', 'transport-error'] } },
  },
  {
    name: 'robots-5xx', about: 'robots.txt answers 500: robotsSays unknown, confidence medium.',
    robots: { status: 500, type: 'text/html', body: '<title>Error</title>' },
    expect: { headline: 'open', confidence: 'medium', robotsSays: { GPTBot: 'unknown' }, checks: { 'policy.robots-reachable': 'fail', 'policy.search-user-allowed': 'inconclusive' } },
  },
  {
    name: 'robots-html', about: 'robots.txt is an HTML soft-404 page.',
    robots: { status: 200, type: 'text/html', body: '<!doctype html><html><title>Home</title><p>Welcome</p></html>' },
    expect: { headline: 'open', robotsSays: { ClaudeBot: 'unknown' }, checks: { 'policy.robots-reachable': 'fail' } },
  },
  {
    name: 'robots-404', about: 'No robots.txt at all: RFC 9309 says everything is allowed.',
    robots: null,
    expect: { headline: 'open', confidence: 'high', robotsSays: { GPTBot: 'allowed' }, checks: { 'policy.robots-reachable': 'pass', 'policy.ai-rules-explicit': 'fail' } },
  },
  {
    name: 'robots-challenged', about: 'robots.txt itself is behind a challenge for every client, the home page is not.',
    edge: [{ who: 'all', paths: ['/robots.txt'], respond: { status: 403, headers: { 'cf-mitigated': 'challenge', 'content-type': 'text/html' }, body: '<title>Just a moment...</title>' } }],
    expect: { headline: 'open', robotsSays: { GPTBot: 'unknown' }, checks: { 'policy.robots-reachable': 'fail' } },
  },
];
