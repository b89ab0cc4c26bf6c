// Network-level limits (unconfigured, down, hanging, IP-blocked vantages) and the profile detector.
import type { Scenario } from '../site.ts';
import { htmlPage } from '../site.ts';
import { SCORED, all } from './tokens.ts';

const apiCatalog = '{"linkset":[{"anchor":"https://{domain}/api","service-desc":[{"href":"https://{domain}/openapi.json","type":"application/openapi+json"}]}]}';
const openapi = '{"openapi":"3.1.0","info":{"title":"Example API","version":"1.0.0"},"paths":{}}';
const llms = '# Example Docs\n\n> Developer documentation.\n\n## Guides\n\n- [Start](https://{domain}/start): getting started\n- [Missing](https://{domain}/gone): removed page\n';

export const SPECIAL_SCENARIOS: Scenario[] = [
  {
    name: 'netb-unconfigured', about: 'An open site scanned without networkB: its cells are unprobed, nothing is lowered.',
    scan: { networkB: 'unconfigured' },
    expect: { headline: 'open', vantagesConfirmed: false, confidence: 'medium', verdicts: all(SCORED, 'pass'), edge: { control: ['pass', 'unprobed'], GPTBot: ['pass', 'unprobed'] } },
  },
  {
    name: 'netb-ip-blocked', about: 'The site refuses networkB entirely (browser included): a network-level block, not agent hostility.',
    edge: [{ who: 'all', networks: ['networkB'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden: datacenter IP' } }],
    expect: { headline: 'open', vantagesConfirmed: false, confidence: 'medium', verdicts: all(SCORED, 'pass'), edge: { control: ['pass', 'block'], GPTBot: ['pass', 'block'] } },
  },
  {
    name: 'netb-slow', about: 'networkB is too slow: every request through it times out. Nothing is lowered; only confidence drops.',
    edge: [{ who: 'all', networks: ['networkB'], respond: 'hang' }],
    // networkB never answers, so any timeout shows it; 2 s leaves networkA room on a loaded machine.
    scan: { probeTimeoutMs: 2000 },
    expect: { headline: 'open', vantagesConfirmed: false, confidence: 'medium', verdicts: all(SCORED, 'pass'), edge: { control: ['pass', 'transport-error'], GPTBot: ['pass', 'transport-error'] } },
  },
  {
    name: 'netb-hostile-a-down', about: 'Agents denied on networkA; networkB cannot load the site at all (resets).',
    edge: [
      { who: 'all', networks: ['networkB'], paths: ['/'], respond: 'reset' },
      { who: 'agents', networks: ['networkA'], paths: ['/'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } },
    ],
    expect: { headline: 'partially-blocked', vantagesConfirmed: false, confidence: 'medium', verdicts: all(SCORED, 'denied'), edge: { control: ['pass', 'transport-error'], GPTBot: ['block', 'transport-error'] } },
  },
  {
    name: 'vercel-protected', about: 'Deployment Protection: every client, browsers included, gets 401. No usable network.',
    edge: [{ who: 'all', respond: { status: 401, headers: { server: 'Vercel', 'x-vercel-id': 'fra1::x', 'content-type': 'text/html', 'www-authenticate': 'Bearer' }, body: '<title>Authentication Required</title>' } }],
    expect: { headline: 'unknown', vantagesConfirmed: false, confidence: 'low', profile: null, verdicts: all(SCORED, 'inconclusive'), edge: { control: ['auth', 'auth'], GPTBot: ['auth', 'auth'] } },
  },
  {
    name: 'dev-platform', about: 'An API platform: api-catalog, OpenAPI linked by service-desc, MCP server card, OAuth metadata.',
    homeHeaders: { link: '<https://{domain}/openapi.json>; rel="service-desc"; type="application/openapi+json", </.well-known/api-catalog>; rel="api-catalog"' },
    files: {
      '/.well-known/api-catalog': { type: 'application/linkset+json', body: apiCatalog },
      '/openapi.json': { type: 'application/json', body: openapi },
      '/.well-known/mcp/server-card.json': { type: 'application/json', body: '{"name":"example","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://{domain}/mcp"}]}' },
      '/.well-known/oauth-protected-resource': { type: 'application/json', body: '{"resource":"https://{domain}/api","authorization_servers":["https://{domain}"]}' },
      '/.well-known/security.txt': { type: 'text/plain', body: 'Contact: mailto:security@{domain}\nExpires: 2099-01-01T00:00:00Z\n' },
    },
    expect: { headline: 'open', profile: 'dev-platform', checks: { 'discovery.api-catalog': 'pass', 'discovery.openapi': 'pass', 'discovery.mcp-card': 'pass', 'discovery.oauth-metadata': 'pass', 'discovery.link-headers': 'pass', 'trust.security-txt': 'pass', 'trust.machine-license': 'skipped' } },
  },
  {
    name: 'docs-site', about: 'A documentation site: llms.txt with one dead link, Markdown negotiation and .md twins.',
    home: htmlPage({ title: 'Example Docs' }),
    markdown: { type: 'text/markdown; charset=utf-8', headers: { vary: 'Accept' }, body: '# Example Docs\n\nWelcome.\n' },
    files: {
      '/llms.txt': { type: 'text/plain', body: llms },
      '/start': { type: 'text/html', body: htmlPage({ title: 'Start' }) },
      '/start.md': { type: 'text/markdown', body: '# Start\n' },
    },
    expect: { headline: 'open', profile: 'docs', checks: { 'discovery.llms-txt': 'pass', 'discovery.llms-txt-size': 'pass', 'discovery.llms-txt-links': 'fail', 'content.markdown-negotiation': 'pass', 'content.markdown-variants': 'pass', 'discovery.api-catalog': 'skipped' } },
  },
  {
    name: 'publisher', about: 'A news site: Article markup, an RSS feed, an RSL licence named in robots.txt.',
    robots: 'User-agent: *\nAllow: /\nLicense: https://{domain}/license.xml\n\nUser-agent: GPTBot\nDisallow: /\n',
    home: htmlPage({ title: 'Daily Example', jsonLd: '{"@context":"https://schema.org","@type":"NewsArticle","headline":"Example"}', head: '<link rel="alternate" type="application/rss+xml" href="/feed.xml">' }),
    files: { '/license.xml': { type: 'application/xml', body: '<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">search</permits></license></content></rsl>' } },
    expect: { headline: 'open', profile: 'publisher', robotsSays: { GPTBot: 'blocked' }, checks: { 'trust.machine-license': 'pass', 'policy.training-preference': 'pass', 'content.structured-data': 'pass', 'discovery.link-headers': 'skipped' } },
  },
  {
    name: 'app-shell', about: 'A client-rendered app: the HTML is an empty root, and the page is marked noindex.',
    home: '<!doctype html><html lang="en"><head><title>App</title><meta name="robots" content="noindex"></head><body><div id="root"></div><script src="/app.js"></script></body></html>',
    expect: { headline: 'open', checks: { 'content.server-rendered': 'fail', 'policy.not-noindexed': 'fail', 'content.structured-data': 'fail' } },
  },
];

/** Scenarios that live at special addresses (see README): the site names are fixed by SCAN_RESOLVE. */
export const UNREACHABLE_SCENARIOS: Scenario[] = [
  {
    name: 'down', about: 'The address refuses connections: transport errors everywhere, headline unknown.',
    expect: { headline: 'unknown', confidence: 'low', verdicts: all(SCORED, 'inconclusive'), edge: { control: ['transport-error', 'transport-error'], GPTBot: ['transport-error', 'transport-error'] } },
  },
  {
    name: 'hang', about: 'The address accepts TCP and never speaks: every probe times out.',
    scan: { probeTimeoutMs: 300 },
    expect: { headline: 'unknown', verdicts: all(SCORED, 'inconclusive'), edge: { control: ['transport-error', 'transport-error'] } },
  },
];
