// Cloudflare: AI Crawl Control decides per crawler; WAF custom rules (Skip action) carry the rest.
// Docs: developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/,
// /waf/custom-rules/skip/ and /waf/custom-rules/skip/options/, /fundamentals/reference/markdown-for-agents/,
// /bots/additional-configurations/managed-robots-txt/, /rules/transform/response-header-modification/,
// /workers/static-assets/.
import { HOME_LINK, staticFileFixes } from './static-files.ts';
import { cfExpression, listed, type FixContext, type FixEntry, type PlatformEntry } from './types.ts';

const CRAWL_CONTROL = 'https://developers.cloudflare.com/ai-crawl-control/features/manage-ai-crawlers/';
const SKIP = 'https://developers.cloudflare.com/waf/custom-rules/skip/';
const MANAGED_ROBOTS = 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/';
const PAY_PER_CRAWL = 'https://developers.cloudflare.com/ai-crawl-control/features/pay-per-crawl/';

const allowAgents = (role: string) => ({ agents }: FixContext): FixEntry => ({
  setting: 'AI Crawl Control → Crawlers, then Security rules → Custom rules (Skip)',
  text: `In AI Crawl Control set ${listed(agents)} to Allow. If a custom rule, Super Bot Fight Mode or a managed rule still challenges ${role}, add a custom rule with this expression and the Skip action (All Super Bot Fight Mode rules, All managed rules), placed first.`,
  docUrl: CRAWL_CONTROL,
  snippet: cfExpression(agents),
});

export const cloudflare: PlatformEntry = {
  id: 'cloudflare', name: 'Cloudflare', role: 'edge', vendors: ['cloudflare'],
  fixes: {
    'access.user-agents': allowAgents('these user-triggered fetchers'),
    'access.search-agents': allowAgents('these AI search crawlers'),
    'access.training-consistency': ({ agents }) => ({
      setting: 'AI Crawl Control → Crawlers',
      text: `Cloudflare turns away ${listed(agents)} while robots.txt allows them. Either set them to Allow in AI Crawl Control, or keep the block and say so in robots.txt (AI Crawl Control's managed robots.txt can add the Disallow lines).`,
      docUrl: CRAWL_CONTROL,
    }),
    'access.no-agent-rate-limit': ({ agents }) => ({
      setting: 'Security rules → Custom rules (Skip: All rate limiting rules)',
      text: `A rate limiting rule answers ${listed(agents)} with 429 on a single request. Key the rule on request rate rather than on the user-agent, or skip rate limiting for these agents with a custom rule (Skip, All rate limiting rules) using this expression.`,
      docUrl: 'https://developers.cloudflare.com/waf/custom-rules/skip/options/',
      snippet: cfExpression(agents),
    }),
    'policy.robots-reachable': () => ({
      setting: 'Security rules → Custom rules (Skip)',
      text: 'Exempt robots.txt from challenges: a custom rule with this expression and the Skip action (All Super Bot Fight Mode rules, All managed rules, All rate limiting rules).',
      docUrl: SKIP,
      snippet: '(http.request.uri.path eq "/robots.txt")',
    }),
    'policy.training-preference': () => ({
      setting: 'AI Crawl Control → managed robots.txt',
      text: 'Turn on the managed robots.txt: Cloudflare prepends to your robots.txt a Content-Signal line (ai-train=…) and Disallow groups for the AI training crawlers, so the site declares a training preference without editing the file.',
      docUrl: MANAGED_ROBOTS,
    }),
    'policy.ai-rules-explicit': () => ({
      setting: 'AI Crawl Control → managed robots.txt',
      text: 'The managed robots.txt prepends a Content-Signal line (search=, ai-train=) and groups for the AI training crawlers, which states the search and training roles. For the user-triggered role add a group for one such agent (for example ChatGPT-User) to your own robots.txt, which Cloudflare keeps below its managed block.',
      docUrl: MANAGED_ROBOTS,
    }),
    'discovery.link-headers': () => ({
      setting: 'Rules → Response Header Transform Rules (Add static)',
      text: 'Add a response header transform rule for the home page (this expression) that adds a static Link header pointing agents at the machine-readable resources.',
      docUrl: 'https://developers.cloudflare.com/rules/transform/response-header-modification/',
      snippet: `(http.request.uri.path eq "/")
Link: ${HOME_LINK}`,
    }),
    ...staticFileFixes((f) => ({
      setting: 'Workers static assets (the assets directory in the Wrangler configuration)',
      text: `If the site runs on Cloudflare Workers or Pages, put ${f.what} at ${f.path} in the static assets directory, and make sure single-page-application not-found handling does not answer ${f.path} with index.html. If Cloudflare proxies your own server, publish it there: Cloudflare passes it through.`,
      docUrl: 'https://developers.cloudflare.com/workers/static-assets/',
    })),
    'content.markdown-negotiation': () => ({
      setting: 'Markdown for Agents',
      text: 'Turn on Markdown for Agents for the zone: Cloudflare then answers requests whose Accept names text/markdown with a Markdown rendering of the page (Content-Type: text/markdown) converted at the edge.',
      docUrl: 'https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/',
    }),
  },
  // The marker lines exactly as the managed robots.txt page prints them (its "Feature enabled" example:
  // `# BEGIN Cloudflare Managed content` ... `# END Cloudflare Managed Content`, in those cases).
  managedRobots: {
    begin: '# BEGIN Cloudflare Managed content',
    end: '# END Cloudflare Managed Content',
    docUrl: MANAGED_ROBOTS,
    setting: 'Security Settings → Bot traffic → Instruct AI bot traffic with robots.txt (older dashboard: Security → Bots → Instruct bot traffic with robots.txt)',
    fix: (agents) => `Cloudflare adds the lines that decide ${listed(agents)} to the top of your robots.txt, above your own rules. Editing your own file cannot remove them: turn off "Instruct AI bot traffic with robots.txt" if they do not say what you want (AI Crawl Control then still decides per crawler what the edge does), or keep it on if they do.`,
  },
  edgeRule: {
    docUrl: CRAWL_CONTROL,
    allow: (t) => `In AI Crawl Control → Crawlers set ${listed(t)} to Allow, and add a custom rule with the Skip action for ${cfExpression(t)} if another rule still challenges them.`,
    deny: (t) => `In AI Crawl Control → Crawlers set ${listed(t)} to Block (or add a custom rule with the Block action for ${cfExpression(t)}).`,
    // Pay per crawl: a crawler set to Charge is answered 402 with its crawler-price header.
    charge: {
      docUrl: PAY_PER_CRAWL,
      text: (t) => `Turn on pay per crawl (AI Crawl Control → Settings: set a price), then in AI Crawl Control → Crawlers set ${listed(t)} to Charge; Cloudflare then answers them 402 with the price in a crawler-price header.`,
    },
  },
};
