// Vercel: the Firewall's custom rules (bypass / deny by user_agent) and its managed rulesets;
// vercel.json for headers and rewrites. Docs: vercel.com/docs/vercel-firewall/vercel-waf/custom-rules,
// /managed-rulesets, /docs/routing/rewrites, /docs/project-configuration/vercel-json.
import { staticFileFixes } from './static-files.ts';
import { listed, type FixContext, type FixEntry, type PlatformEntry } from './types.ts';

const CUSTOM_RULES = 'https://vercel.com/docs/vercel-firewall/vercel-waf/custom-rules';

const bypass = (what: string) => ({ agents }: FixContext): FixEntry => ({
  setting: 'Firewall → Custom rules (Bypass), and Bot Protection / AI Bots managed rulesets',
  text: `Vercel's Firewall turns away ${listed(agents)}. Add a custom rule "If User Agent contains …" for ${what} with the Bypass action, placed above other rules, and check that the AI Bots managed ruleset is not set to Deny for them.`,
  docUrl: CUSTOM_RULES,
  snippet: agents.map((a) => `User Agent contains "${a}" → Bypass`).join('\n'),
});

export const vercel: PlatformEntry = {
  id: 'vercel', name: 'Vercel', role: 'host', vendors: ['vercel'],
  fixes: {
    'access.user-agents': bypass('each user-triggered fetcher'),
    'access.search-agents': bypass('each AI search crawler'),
    'access.training-consistency': ({ agents }) => ({
      setting: 'Firewall → Managed rulesets (AI Bots)',
      text: `Vercel denies ${listed(agents)} while robots.txt allows them: set the AI Bots managed ruleset to Log instead of Deny (or bypass them with a custom rule), or keep the denial and disallow them in robots.txt.`,
      docUrl: 'https://vercel.com/docs/vercel-firewall/vercel-waf/managed-rulesets',
    }),
    'access.no-agent-rate-limit': ({ agents }) => ({
      setting: 'Firewall → Custom rules (Rate limit)',
      text: `A rate-limit rule answers ${listed(agents)} with 429 on a single request: raise its limit, key it on IP rather than user-agent, or exclude these agents from it.`,
      docUrl: CUSTOM_RULES,
    }),
    'discovery.link-headers': () => ({
      setting: 'vercel.json → headers',
      text: 'Send a Link header on the home page that points agents at the machine-readable resources (the sitemap, llms.txt, the Markdown twin).',
      docUrl: 'https://vercel.com/docs/project-configuration/vercel-json',
      snippet: JSON.stringify({ headers: [{ source: '/', headers: [{ key: 'Link', value: '</sitemap.xml>; rel="sitemap", </llms.txt>; rel="llms-txt", </index.md>; rel="alternate"; type="text/markdown"' }] }] }, null, 2),
    }),
    ...staticFileFixes((f) => ({
      setting: 'The static files directory (public/ in most frameworks) and vercel.json → rewrites',
      text: `Put ${f.what} at ${f.path} among the files Vercel serves as they are (public${f.path} for most frameworks), and make sure no rewrite or catch-all route answers ${f.path} with the app's HTML shell.`,
      docUrl: 'https://vercel.com/docs/routing/rewrites',
    })),
    'content.markdown-negotiation': () => ({
      setting: 'vercel.json → rewrites (has: Accept) and headers',
      text: 'Publish a Markdown twin of each page (for example /index.md) and rewrite requests whose Accept names text/markdown to it; send Vary: Accept on both answers.',
      docUrl: 'https://vercel.com/docs/routing/rewrites',
      snippet: JSON.stringify({
        rewrites: [{ source: '/', has: [{ type: 'header', key: 'accept', value: '(.*)text/markdown(.*)' }], destination: '/index.md' }],
        headers: [{ source: '/(.*)', headers: [{ key: 'Vary', value: 'Accept' }] }, { source: '/(.*).md', headers: [{ key: 'Content-Type', value: 'text/markdown; charset=utf-8' }] }],
      }, null, 2),
    }),
  },
  edgeRule: {
    docUrl: CUSTOM_RULES,
    allow: (t) => `In Vercel's Firewall add a custom rule "User Agent contains" ${listed(t)} with the Bypass action, above the rule or managed ruleset that denies them.`,
    deny: (t) => `In Vercel's Firewall add a custom rule "User Agent contains" ${listed(t)} with the Deny action.`,
  },
};
