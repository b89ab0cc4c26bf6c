// The page each agent gets, and 200 pages that refuse (issue 36 items 2 and 3): an edge product
// that serves agents a page of its own with Adobe LLM Optimizer's documented header, a generic 200
// refusal, a 200 licensing gate, and a short page that is the same for everyone (it stays `pass`).
// The pages are written by us (test sites); the edge corpus holds the captured ones.
import { htmlPage, LOREM, type Scenario } from '../site.ts';

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/**
 * Optimize at Edge routes agentic user agents to Adobe's own service, which answers with its own
 * pre-rendered HTML and the header x-edgeoptimize-request-id ("look for the header
 * x-edgeoptimize-request-id in the response", https://experienceleague.adobe.com/en/docs/llm-optimizer/using/resources/optimize-at-edge/cloudflare-byocdn).
 * Its page keeps the site's canonical URL but has a title and an added FAQ of its own.
 */
const OPTIMIZED = htmlPage({
  title: 'Example Shop | Products, prices and support, answered',
  text: `${LOREM} Frequently asked questions. Which areas do you deliver to? Every postcode of the region, within two working days, and the order page shows the exact date before payment. `
    + 'Can I return an item? Yes, within thirty days, free of charge, using the label that comes with every parcel. Do you sell gift cards? Yes, from ten to two hundred euros, valid for three years. '
    + 'How do I reach support? By phone on weekdays from eight to six, by email at any time, and through the chat on every product page.',
});

/** A bare refusal on a 200, no vendor anywhere: what a hand-written user-agent rule in an origin often serves. */
const REFUSAL = '<!doctype html><html lang="en"><head><title>Access denied</title></head><body><h1>Access denied</h1><p>Automated access to this site is not permitted.</p></body></html>';

/** A licensing gate on a 200, as "block AI scrapers" recipes advise (refusals-2026-12.md: a "Protected Dataset" page instead of a 403). */
const LICENSING = '<!doctype html><html lang="en"><head><title>Protected content</title></head><body><main><h1>Protected dataset</h1>'
  + '<p>This content is available to AI systems under a commercial license only. Contact licensing@{domain} for terms.</p></main></body></html>';

/** A members' sign-in page that is the whole site: short, with gate wording, but the same for the browser and every agent. */
const SIGN_IN_FOR_ALL = '<!doctype html><html lang="en"><head><title>Members area</title><link rel="canonical" href="https://{domain}/"></head><body><main><h1>Members area</h1>'
  + '<p>Please sign in to continue.</p><form method="post" action="/login"><input name="user"><input type="password" name="pass"><button>Sign in</button></form></main></body></html>';

export const PAGES_PER_AGENT_SCENARIOS: Scenario[] = [
  {
    name: 'agent-page-adobe',
    about: 'Every agent gets Adobe LLM Optimizer\'s own page for the home page (its header, another title, added text): a pass whose content is `different`, never a denial.',
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 200, headers: { ...HTML, 'x-edgeoptimize-request-id': 'b1946ac9-2d0e-4c1f-9a57-8e9f0c3d2a11' }, body: OPTIMIZED } }],
    expect: {
      headline: 'open', verdicts: { GPTBot: 'pass', 'ChatGPT-User': 'pass', ClaudeBot: 'pass' },
      edge: { GPTBot: ['pass', 'pass'] },
      content: { GPTBot: { networks: ['different', 'different'], differs: ['text', 'title'], agentServing: ['x-edgeoptimize-request-id'] }, 'Claude-User': { networks: ['different', 'different'] } },
      notes: { GPTBot: [/^networkA: the page differs from the browser's in its title, text; served with x-edgeoptimize-request-id \(Adobe LLM Optimizer \(Optimize at Edge\)\)$/] },
      previewChecks: { 'content.same-for-agents': ['fail', 'title, visible text and canonical URL; Adobe LLM Optimizer (Optimize at Edge) seen'] },
      previewDetails: { 'content.same-for-agents': /agents got a page unlike the browser's: GPTBot \(different: text, title; Adobe LLM Optimizer/ },
    },
  },
  {
    name: 'soft-refusal-200',
    about: 'Every agent gets a short 200 "Access denied" page of the origin\'s own, no vendor named; the browser gets the real page: a soft block, so every agent is denied.',
    edge: [{ who: 'agents', paths: ['/'], respond: { status: 200, headers: HTML, body: REFUSAL } }],
    expect: {
      headline: 'agent-hostile', verdicts: { GPTBot: 'denied', 'ChatGPT-User': 'denied', PerplexityBot: 'denied' },
      edge: { control: ['pass', 'pass'], GPTBot: ['block', 'block'] },
      vendors: { GPTBot: [] },
      content: { GPTBot: { networks: ['not-compared', 'not-compared'] } },
      notes: { GPTBot: [/^networkA: soft block: a 200 page with \d+ characters of visible text instead of the browser's \d+, a refusal \(refusal "access denied" \(en\); no main content\)$/] },
    },
  },
  {
    name: 'soft-licensing-200',
    about: 'Training crawlers get a short 200 licensing gate ("Protected dataset") instead of the home page; user-fetch and search agents get the page: training agents are denied, the rest pass.',
    edge: [{ who: ['GPTBot', 'ClaudeBot', 'CCBot', 'Bytespider', 'meta-externalagent', 'Amazonbot', 'Applebot-Extended'], paths: ['/'], respond: { status: 200, headers: HTML, body: LICENSING } }],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'denied', CCBot: 'denied', 'ChatGPT-User': 'pass', PerplexityBot: 'pass' },
      edge: { GPTBot: ['block', 'block'], 'ChatGPT-User': ['pass', 'pass'] },
      vendors: { GPTBot: [] },
      content: { GPTBot: { networks: ['not-compared', 'not-compared'] }, 'ChatGPT-User': { networks: ['same', 'same'] } },
      notes: { GPTBot: [/soft block: .*a licensing gate \(licensing "[^"]+" \(en\); no main content\)$/] },
      previewChecks: { 'content.same-for-agents': ['pass', 'title, visible text and canonical URL'] },
    },
  },
  {
    name: 'short-same-for-all',
    about: 'The whole site is a short members\' sign-in page, the same for the browser and every agent: gate wording, but short for everyone, so every agent passes.',
    home: SIGN_IN_FOR_ALL,
    expect: {
      headline: 'open', verdicts: { GPTBot: 'pass', 'ChatGPT-User': 'pass', ClaudeBot: 'pass' },
      edge: { control: ['pass', 'pass'], GPTBot: ['pass', 'pass'] },
      content: { GPTBot: { networks: ['same', 'same'], differs: [] } },
      previewChecks: { 'content.same-for-agents': ['pass', 'title, visible text and canonical URL'] },
    },
  },
];
