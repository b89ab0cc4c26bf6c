// Agents as they really arrive (roster-v1.1): a bot manager that weighs the whole header set, and
// Markdown served by content negotiation, the way each agent asks for it (fleets-watches-fidelity §2).
import type { Scenario } from '../site.ts';
import { htmlPage } from '../site.ts';
import { cloudflare } from '../vendors.ts';

/** The same page as the home page, as a Markdown twin would carry it. */
const MARKDOWN_TWIN = '# Example Shop: products and support\n\nAgent readiness matters because assistants read the web for people. This site explains its products in plain words, lists its prices, describes how support works, and links every document a visitor could need.\n';

export const ARRIVAL_SCENARIOS: Scenario[] = [
  {
    name: 'waf-fetch-metadata', about: 'A bot manager challenges every request without Fetch Metadata (sec-fetch-*), as many do: the browser control sends Chrome\'s, so it passes; agents do not, except Mistral\'s browser-engine fetcher.',
    presence: cloudflare.presence,
    edge: [{ who: 'all', lacks: ['sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest'], respond: cloudflare.challenge() }],
    expect: {
      // Mistral's fetcher sends Fetch Metadata and gets through, so the edge is not hostile to every agent.
      headline: 'partially-blocked', vantagesConfirmed: true,
      verdicts: { GPTBot: 'denied', 'ChatGPT-User': 'denied', 'Claude-User': 'denied', 'MistralAI-User': 'pass' },
      edge: { control: ['pass', 'pass'], GPTBot: ['challenge', 'challenge'], 'MistralAI-User': ['pass', 'pass'] },
      vendors: { GPTBot: ['cloudflare'] },
    },
  },
  {
    name: 'markdown-by-accept', about: 'Markdown only to requests whose Accept names text/markdown, with Vary: Accept on both answers, and a Markdown alternate: Claude Code (as Claude-User) and Cursor get Markdown, GPTBot does not ask and gets HTML.',
    home: htmlPage({ head: '<link rel="alternate" type="text/markdown" href="/index.md">' }),
    homeHeaders: { vary: 'Accept' },
    markdown: { type: 'text/markdown; charset=utf-8', headers: { vary: 'Accept' }, body: MARKDOWN_TWIN },
    files: { '/index.md': { type: 'text/markdown; charset=utf-8', body: MARKDOWN_TWIN } },
    expect: {
      headline: 'open', checks: { 'content.markdown-negotiation': 'pass' },
      previewChecks: { 'content.markdown-negotiation': ['pass'] },
      notes: {
        'Claude-User': [/^Markdown: Claude Code \(as Claude-User\) asked for Markdown \(Accept: text\/markdown, text\/html, \*\/\*\) and received Markdown, with Vary: Accept$/, /^Markdown: Claude-User does not ask for it \(Accept: \*\/\*\) and received HTML$/],
        GPTBot: [/^Markdown: GPTBot does not ask for it \(Accept: \*\/\*\) and received HTML$/],
      },
    },
  },
  {
    name: 'markdown-no-vary', about: 'Markdown to requests that ask for it, but no Vary: Accept on either answer and no alternate: the preview rubric takes 30 % off.',
    markdown: { type: 'text/markdown', body: MARKDOWN_TWIN },
    expect: { headline: 'open', checks: { 'content.markdown-negotiation': 'pass' }, previewChecks: { 'content.markdown-negotiation': ['pass'] } },
  },
];
