// Files that are not the file (issue 32): hosts that answer a missing file with an app shell or a
// "not found" page and status 200. The pages are real build output, captured from public
// repositories (test/fixtures/files/manifest.json names each source).
import fs from 'node:fs';
import type { Scenario } from '../site.ts';
import { htmlPage } from '../site.ts';
import { SCORED, all } from './tokens.ts';

const captured = (name: string) => fs.readFileSync(new URL(`../../fixtures/files/bodies/${name}`, import.meta.url), 'utf8');
const html = (body: string) => ({ status: 200, type: 'text/html; charset=utf-8', body });

/** 0019atharv/vite dist/index.html: a Vite + React build's index.html. */
const VITE_SHELL = captured('vite-react-dist-index.html');
/** 3Nikeru/nextjs-blog out/404.html: a Next.js static export's not-found page. */
const NEXT_NOT_FOUND = captured('nextjs-app-router-404.html');
/** koala73/worldmonitor public/agents.md: the agents.md a Vite SPA publishes at its root. */
const WORLDMONITOR_AGENTS_MD = captured('worldmonitor-agents.md');
const DOCS = ['intro', 'install', 'api.md', 'faq', 'old', 'removed', 'broken', 'usage'];

export const FILE_SCENARIOS: Scenario[] = [
  {
    name: 'spa-shell-everywhere', about: 'An SPA host (Cloudflare Pages without a 404.html) answers every path, robots.txt and llms.txt included, with its React shell and 200.',
    home: VITE_SHELL,
    robots: html(VITE_SHELL),
    files: { '/sitemap.xml': html(VITE_SHELL) }, // the world's sites serve a sitemap unless told otherwise
    fallback: html(VITE_SHELL),
    expect: {
      headline: 'open', confidence: 'medium', profile: 'general', verdicts: all(SCORED, 'pass'), robotsSays: { GPTBot: 'unknown', 'Claude-User': 'unknown' },
      checks: {
        'discovery.llms-txt': 'fail', 'discovery.llms-txt-size': 'skipped', 'discovery.llms-txt-links': 'skipped', 'policy.sitemap': 'fail',
        'trust.security-txt': 'fail', 'policy.robots-reachable': 'fail', 'policy.robots-valid': 'skipped', 'content.server-rendered': 'fail',
      },
      details: {
        'discovery.llms-txt': /^no \/llms\.txt \(the site answered with an HTML page, a React app shell\)$/,
        'policy.sitemap': /^no sitemap at \/sitemap\.xml and none named in robots\.txt \(the site answered with an HTML page, a React app shell\)$/,
        'trust.security-txt': /^no \/\.well-known\/security\.txt \(the site answered with an HTML page/,
        'policy.robots-reachable': /^robots\.txt is absent \(the site answered with an HTML page, a React app shell\)$/,
      },
      previewChecks: { 'discovery.ard': ['inconclusive'], 'discovery.a2a-card-v1': ['inconclusive'], 'discovery.mcp-card-shape': ['inconclusive'], 'discovery.llms-txt-v2': ['inconclusive'], 'discovery.agents-md': ['inconclusive'] },
      previewDetails: {
        'discovery.a2a-card-v1': /^no A2A agent card \(the site answered with an HTML page, a React app shell\): not applicable$/,
        'discovery.agents-md': /^no \/agents\.md \(the site answered with an HTML page, a React app shell\): not applicable$/,
      },
    },
  },
  {
    name: 'agents-md-shell', about: 'A Next.js site with a real robots.txt and llms.txt whose catch-all answers /agents.md with its not-found page and 200: no agents.md, never a present or broken one.',
    home: htmlPage({ title: 'Example' }),
    files: { '/llms.txt': { type: 'text/plain', body: '# Example\n\n> An example site.\n\n## Pages\n\n- [Home](https://{domain}/)\n' } },
    fallback: html(NEXT_NOT_FOUND),
    expect: {
      headline: 'open', profile: 'docs',
      checks: { 'discovery.llms-txt': 'pass' },
      previewChecks: { 'discovery.agents-md': ['inconclusive'] },
      previewDetails: { 'discovery.agents-md': /^no \/agents\.md \(the site answered with an HTML page, a “not found” page of Next\.js served as a success\): not applicable$/ },
      probeMethod: /\/agents\.md/,
    },
  },
  {
    name: 'agents-md-published', about: 'An SPA host that serves its real agents.md (captured from koala73/worldmonitor public/agents.md) before its shell fallback: present.',
    home: VITE_SHELL,
    files: { '/agents.md': { type: 'text/markdown; charset=utf-8', body: WORLDMONITOR_AGENTS_MD } },
    fallback: html(VITE_SHELL),
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.agents-md': ['pass', 'agents.md at the site root'] },
      previewDetails: { 'discovery.agents-md': /^\/agents\.md is served \(4090 characters, “World Monitor — Agent Guide”\) as text\/markdown$/ },
    },
  },
  {
    name: 'llms-app-shell', about: 'robots.txt disallows two user agents; /llms.txt answers a Next.js not-found page with 200, which is no llms.txt and so invites nobody.',
    robots: 'User-agent: ChatGPT-User\nUser-agent: Perplexity-User\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    files: { '/llms.txt': html(NEXT_NOT_FOUND) },
    expect: {
      headline: 'open', profile: 'general', robotsSays: { 'ChatGPT-User': 'blocked' },
      checks: { 'discovery.llms-txt': 'fail' },
      details: { 'discovery.llms-txt': /^no \/llms\.txt \(the site answered with an HTML page, a “not found” page of Next\.js served as a success\)$/ },
      previewChecks: { 'discovery.llms-txt-v2': ['inconclusive'] },
    },
  },
  {
    name: 'llms-dead-links', about: 'A documentation site whose llms.txt lists 8 links: 3 are dead (404, 410, 503), 5 resolve.',
    home: htmlPage({ title: 'Example Docs' }),
    files: {
      '/llms.txt': { type: 'text/plain', body: `# Example Docs\n\n> Developer documentation.\n\n## Docs\n\n${DOCS.map((p) => `- [${p}](https://{domain}/docs/${p})`).join('\n')}\n` },
      '/docs/intro': html(htmlPage({ title: 'Intro' })), '/docs/install': html(htmlPage({ title: 'Install' })), '/docs/faq': html(htmlPage({ title: 'FAQ' })),
      '/docs/usage': html(htmlPage({ title: 'Usage' })), '/docs/api.md': { type: 'text/markdown', body: '# API\n\nThe API in Markdown.\n' },
      '/docs/old': { status: 404, type: 'text/html', body: '<!doctype html><title>Not found</title>' },
      '/docs/removed': { status: 410, type: 'text/html', body: '<!doctype html><title>Gone</title>' },
      '/docs/broken': { status: 503, type: 'text/html', body: '<!doctype html><title>Unavailable</title>' },
    },
    expect: {
      headline: 'open', profile: 'docs',
      // rubric-v1.1 still scores the first 5 links in sorted order, where only /docs/broken fails, with a 5xx it leaves undecided.
      checks: { 'discovery.llms-txt-links': 'fail' }, // rubric-v1.2's revised judgement; rubric-v1.1 passed it (test/fixtures/world-scores/rubric-v1.1.json)
      previewChecks: { 'discovery.llms-txt-links': ['fail'] },
      previewDetails: { 'discovery.llms-txt-links': /^5 of 8 links resolve \(62 %\); 3 dead: \/docs\/broken \(HTTP 503\), \/docs\/old \(HTTP 404\), \/docs\/removed \(HTTP 410\)$/ },
      probeMethod: /This scan followed 8 links listed in llms\.txt: (?=.*\/docs\/old\b)(?=.*\/docs\/removed\b)(?=.*\/docs\/broken\b)/,
    },
  },
  {
    name: 'llms-md-shell', about: 'llms.txt promises Markdown (.md links) but the SPA host answers the missing ones with its React shell and 200.',
    home: htmlPage({ title: 'Example Docs' }),
    files: {
      '/llms.txt': { type: 'text/plain', body: '# Example Docs\n\n> Developer documentation.\n\n## Docs\n\n- [Start](https://{domain}/docs/start.md)\n- [Reference](https://{domain}/docs/reference.md)\n- [Guide](https://{domain}/guide)\n' },
      '/docs/start.md': { type: 'text/markdown', body: '# Start\n' },
      '/guide': html(htmlPage({ title: 'Guide' })),
    },
    fallback: html(VITE_SHELL),
    expect: {
      headline: 'open', profile: 'docs',
      checks: { 'discovery.llms-txt-links': 'fail' }, // rubric-v1.2's revised judgement; rubric-v1.1 passed it (test/fixtures/world-scores/rubric-v1.1.json)
      previewChecks: { 'discovery.llms-txt-links': ['fail'] },
      previewDetails: { 'discovery.llms-txt-links': /^2 of 3 links resolve \(66 %\); 1 an HTML page where Markdown was promised: \/docs\/reference\.md$/ },
    },
  },
];
