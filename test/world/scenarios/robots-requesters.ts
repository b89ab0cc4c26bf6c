// robots.txt as each requester gets it (issue 36, item 1): a copy served to one agent only, a copy
// that differs on one network only, an agent whose request for robots.txt the edge refuses, and
// Cloudflare's managed block above an owner's file.
import type { Scenario } from '../site.ts';
import { cloudflare } from '../vendors.ts';

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * Cloudflare's managed robots.txt, built around its documented markers (fidelity:
 * built-around-published-markers). Structure and marker lines as the "Feature enabled" example of
 * https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/ prints them
 * (cloudflare/cloudflare-docs, src/content/docs/bots/additional-configurations/managed-robots-txt.mdx):
 * Cloudflare's Content Signals comments (abridged here to their first lines), `# BEGIN Cloudflare
 * Managed content`, a `User-Agent: *` group with its Content-signal line and `Allow: /`, one
 * `Disallow: /` group per crawler, `# END Cloudflare Managed Content`, then the owner's file.
 * The crawlers are those a live managed block disallowed in July 2026 (sunilabrahamindia/sunilabraham#27,
 * quoted in /work/shared/research/refusals-2026-12.md): Amazonbot, Applebot-Extended, Bytespider,
 * CCBot, ClaudeBot, CloudflareBrowserRenderingCrawler, Google-Extended, GPTBot, meta-externalagent.
 */
export const CLOUDFLARE_MANAGED_BLOCK = [
  '# As a condition of accessing this website, you agree to abide by the',
  '# following content signals:',
  '',
  '# BEGIN Cloudflare Managed content',
  '',
  'User-Agent: *',
  'Content-signal: search=yes, ai-train=no',
  'Allow: /',
  '',
  ...['Amazonbot', 'Applebot-Extended', 'Bytespider', 'CCBot', 'ClaudeBot', 'CloudflareBrowserRenderingCrawler', 'Google-Extended', 'GPTBot', 'meta-externalagent']
    .flatMap((t) => [`User-agent: ${t}`, 'Disallow: /', '']),
  '# END Cloudflare Managed Content',
].join('\n');

/** The owner's own file below the block (as in Cloudflare's example: a `*` group and a sitemap). */
const OWNER = 'User-agent: *\nDisallow: /private/\n\nSitemap: https://{domain}/sitemap.xml\n';

/** The agents the block decides: named in it, and only partially disallowed by the owner's `*` group (roster order). */
const MANAGED_AGENTS = ['GPTBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'meta-externalagent', 'CCBot', 'Bytespider', 'Amazonbot'];

export const ROBOTS_REQUESTER_SCENARIOS: Scenario[] = [
  {
    name: 'robots-varies-gptbot',
    about: 'The site serves GPTBot, on both networks, a robots.txt that disallows everything; the browser and every other agent get one that allows all. The edge lets GPTBot in.',
    edge: [{ who: ['GPTBot'], paths: ['/robots.txt'], respond: { status: 200, headers: TEXT, body: 'User-agent: *\nDisallow: /\n' } }],
    expect: {
      headline: 'open', verdicts: { GPTBot: 'pass', ClaudeBot: 'pass', 'Google-Extended': 'not-probeable' },
      robotsSays: { GPTBot: 'blocked', ClaudeBot: 'allowed', 'ChatGPT-User': 'allowed', 'Google-Extended': 'allowed' },
      robotsTxt: { variesByRequester: true, copies: 2, ownCopy: ['GPTBot'], ownCopySecond: ['GPTBot'], managed: null },
      reasons: [/^robots\.txt is not the same for every requester: GPTBot was served a copy that disallows \/ \(line 2: "Disallow: \/"\), while the browser's copy allows \/\. Each agent's robots\.txt verdict follows the copy it was served \(RFC 9309\)\. NetworkB served it the same copy\.$/],
      notes: { GPTBot: [/^robots\.txt as served to GPTBot \([0-9a-f]{8}, 26 bytes\) differs from the browser's copy \([0-9a-f]{8}, \d+ bytes\); its verdict follows its own copy \(RFC 9309\); networkB served GPTBot the same copy$/] },
      checks: { 'policy.robots-reachable': 'pass', 'policy.search-user-allowed': 'pass' },
      robotsPatch: null,
    },
  },
  {
    name: 'robots-varies-network-a',
    about: 'ClaudeBot is served a robots.txt that disallows it from networkA only; from networkB it gets the browser\'s copy.',
    edge: [{ who: ['ClaudeBot'], networks: ['networkA'], paths: ['/robots.txt'], respond: { status: 200, headers: TEXT, body: 'User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' } }],
    expect: {
      headline: 'open', verdicts: { ClaudeBot: 'pass' }, robotsSays: { ClaudeBot: 'blocked', GPTBot: 'allowed' },
      robotsTxt: { variesByRequester: true, copies: 2, ownCopy: ['ClaudeBot'], ownCopySecond: [] },
      reasons: [/ClaudeBot was served a copy that disallows \/ \(line 2: "Disallow: \/"\).* On networkB ClaudeBot got the browser's copy, so the difference may follow the network rather than the requester\./],
      notes: { ClaudeBot: [/; on networkB ClaudeBot got a copy that says something else/] },
    },
  },
  {
    name: 'robots-denied-to-agent',
    about: 'The edge answers Bytespider 403 on every path, robots.txt included; the browser\'s robots.txt disallows Bytespider, and that copy decides its verdict.',
    robots: 'User-agent: Bytespider\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    edge: [{ who: ['Bytespider'], respond: { status: 403, headers: TEXT, body: 'Forbidden' } }],
    expect: {
      headline: 'partially-blocked', verdicts: { Bytespider: 'blocked-consistent', GPTBot: 'pass' }, robotsSays: { Bytespider: 'blocked' },
      robotsTxt: { variesByRequester: false, copies: 2, ownCopy: ['Bytespider'], ownCopySecond: [] },
      notes: { Bytespider: [/^robots\.txt was answered with a block \(status 403\) when asked for as Bytespider, so its verdict uses the browser's copy$/] },
    },
  },
  {
    name: 'cf-managed-robots',
    about: 'Cloudflare\'s managed robots.txt block above the owner\'s file: it disallows eight roster agents the owner\'s rules allow; the edge lets them in and blocks PerplexityBot.',
    presence: cloudflare.presence,
    robots: `${CLOUDFLARE_MANAGED_BLOCK}\n${OWNER}`,
    edge: [{ who: ['PerplexityBot'], paths: ['/'], respond: cloudflare.block1020() }],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'pass', ClaudeBot: 'pass', CCBot: 'pass', PerplexityBot: 'denied', 'Google-Extended': 'not-probeable' },
      robotsSays: { GPTBot: 'blocked', ClaudeBot: 'blocked', 'Google-Extended': 'blocked', 'Applebot-Extended': 'blocked', PerplexityBot: 'partial', 'Claude-User': 'partial' },
      robotsTxt: { variesByRequester: false, copies: 1, ownCopy: [], managed: { vendor: 'cloudflare', agents: MANAGED_AGENTS } },
      reasons: [/^robots\.txt carries Cloudflare's managed block \(lines 1–37\), which Cloudflare adds above the site's own rules: it decides what robots\.txt says to GPTBot, ClaudeBot, Google-Extended, Applebot-Extended, meta-externalagent, CCBot, Bytespider and Amazonbot; the site's own lines alone would say otherwise\.$/],
      robotsPatch: { agents: ['PerplexityBot'], managed: ['GPTBot', 'ClaudeBot', 'meta-externalagent', 'CCBot', 'Bytespider', 'Amazonbot'] },
    },
  },
];
