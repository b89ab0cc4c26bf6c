// Netlify: _headers for response headers, Edge Functions for negotiation and per-agent answers.
// Docs: docs.netlify.com/manage/routing/headers/, /build/edge-functions/overview/,
// /manage/monitoring/observability/reference/block-reason (which rule blocked a request).
import { staticFileFixes } from './static-files.ts';
import { listed, type FixContext, type FixEntry, type PlatformEntry } from './types.ts';

const BLOCK_REASON = 'https://docs.netlify.com/manage/monitoring/observability/reference/block-reason/';
const EDGE_FUNCTIONS = 'https://docs.netlify.com/build/edge-functions/overview/';

const unblock = ({ agents }: FixContext): FixEntry => ({
  setting: 'Observability → block reason, then the firewall traffic rule, WAF rule or extension it names',
  text: `Netlify turns away ${listed(agents)}. The block reason in Observability names the rule (Firewall Traffic Rules, WAF, rate limiting, or an extension such as a user-agent blocker); remove these agents from it.`,
  docUrl: BLOCK_REASON,
});

export const netlify: PlatformEntry = {
  id: 'netlify', name: 'Netlify', role: 'host', vendors: ['netlify'],
  fixes: {
    'access.user-agents': unblock,
    'access.search-agents': unblock,
    'access.training-consistency': (ctx) => ({ ...unblock(ctx), text: `${unblock(ctx).text} Or keep the block and disallow them in robots.txt.` }),
    'access.no-agent-rate-limit': unblock,
    'discovery.link-headers': () => ({
      setting: '_headers in the publish directory',
      text: 'Send a Link header on the home page that points agents at the machine-readable resources (the sitemap, llms.txt, the Markdown twin).',
      docUrl: 'https://docs.netlify.com/manage/routing/headers/',
      snippet: '/\n  Link: </sitemap.xml>; rel="sitemap", </llms.txt>; rel="llms-txt"',
    }),
    ...staticFileFixes((f) => ({
      setting: 'The publish directory and _redirects',
      text: `Put ${f.what} at ${f.path} in the publish directory. Netlify serves a file that exists before a /* /index.html 200 single-page-app rule, unless that rule is forced with !; a forced rule answers ${f.path} with the app shell.`,
      docUrl: 'https://docs.netlify.com/manage/routing/redirects/rewrites-proxies/',
    })),
    'content.markdown-negotiation': () => ({
      setting: 'Edge Functions (netlify/edge-functions/) and _headers',
      text: 'Publish a Markdown twin of each page and serve it from an Edge Function to requests whose Accept names text/markdown; send Vary: Accept on every page (in _headers).',
      docUrl: EDGE_FUNCTIONS,
      snippet: [
        '// netlify/edge-functions/markdown.ts',
        'export default async (req: Request, context: { next(): Promise<Response> }) => {',
        "  if (!(req.headers.get('accept') ?? '').includes('text/markdown')) return context.next();",
        "  const url = new URL(req.url);",
        "  const twin = await fetch(new URL(url.pathname.endsWith('/') ? `${url.pathname}index.md` : `${url.pathname}.md`, url));",
        "  if (!twin.ok) return context.next();",
        "  return new Response(twin.body, { headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' } });",
        '};',
        "export const config = { path: '/*', excludedPath: '/*.md' };",
        '',
        '# _headers',
        '/*',
        '  Vary: Accept',
      ].join('\n'),
    }),
  },
  edgeRule: {
    docUrl: BLOCK_REASON,
    allow: (t) => `Remove ${listed(t)} from the Netlify rule that blocks them (the block reason in Observability names it).`,
    deny: (t) => `Block ${listed(t)} at Netlify with a firewall traffic rule or WAF rule on the user-agent.`,
  },
};
