// The discovery standards of 2026 (shared/research/standards-2026.md §2), in their current and
// their previous generation, for the preview rubric's checks. Shapes follow the cited specs:
// ARD v0.91 (ards-project/ard-spec spec/ard.md), A2A v1.0 (a2aproject/A2A specification/a2a.proto),
// MCP server card SEP-2127 and SEP-1649, llms.txt v2 (AnswerDotAI/llms-txt changes.md), aipref.
import type { Scenario } from '../site.ts';
import { htmlPage } from '../site.ts';

const json = (v: unknown) => ({ type: 'application/json', body: JSON.stringify(v) });
const llms = '# Example\n\n> Products and support.\n\n## Pages\n\n- [Start](https://{domain}/start): start here\n';
const card2127 = { $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'com.example/catalog', version: '1.2.0', description: 'Product catalog tools', remotes: [{ type: 'streamable-http', url: 'https://{domain}/mcp' }] };
const ardEntry = { identifier: 'urn:air:example:mcp:catalog', displayName: 'Catalog', type: 'application/mcp-server-card+json', url: 'https://{domain}/.well-known/mcp/server-card.json', representativeQueries: ['find a product', 'is it in stock'] };

export const STANDARDS_SCENARIOS: Scenario[] = [
  {
    name: 'standards-2026', about: 'Every 2026 discovery standard in its current generation: ARD v0.91, A2A v1.0, a SEP-2127 card, llms.txt v2 links, aipref and Content Signals that agree.',
    home: htmlPage({ head: '<link rel="describedby" href="/llms.txt"><link rel="alternate" type="text/markdown" href="/index.md">' }),
    homeHeaders: { 'content-usage': 'train-ai=n, search=y' },
    robots: 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nAgentmap: https://{domain}/.well-known/ard.json\nSitemap: https://{domain}/sitemap.xml\n',
    files: {
      '/llms.txt': { type: 'text/plain', body: llms },
      '/.well-known/ard.json': json({ entries: [ardEntry] }),
      '/.well-known/ai-catalog.json': json({ specVersion: '0.1', host: '{domain}', entries: [ardEntry] }),
      '/.well-known/mcp/server-card.json': json(card2127),
      '/.well-known/agent-card.json': json({
        name: 'Example agent', description: 'Answers product questions', version: '1.0.0',
        supportedInterfaces: [{ url: 'https://{domain}/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: { streaming: false }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
        skills: [{ id: 'products', name: 'Products', description: 'Finds products', tags: ['shop'] }],
      }),
    },
    expect: {
      headline: 'open',
      previewChecks: {
        'discovery.ard': ['pass', 'ARD v0.91 (ard.json)'],
        'discovery.a2a-card-v1': ['pass', 'A2A v1.0'],
        // The card has the v1 schema shape (issue 37 item 1 pins the v2 schema); the AI Catalog lists it, so no legacy path.
        'discovery.mcp-card-shape': ['pass', 'SEP-2127 server card v1 (superseded)'],
        'discovery.llms-txt-v2': ['pass', 'llms.txt v2 (describedby and Markdown alternate)'],
        'policy.preferences-agree': ['pass', 'aipref Content-Usage and Content Signals'],
        'access.payment-offers': ['inconclusive'],
        'trust.web-bot-auth': ['inconclusive'],
      },
    },
  },
  {
    name: 'standards-legacy', about: 'The previous generation of each: only ai-catalog.json, an A2A v0.3 card, a SEP-1649 card, llms.txt found only by path, and two preference vocabularies that disagree.',
    robots: 'User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: train-ai=n\nAllow: /\n',
    files: {
      '/llms.txt': { type: 'text/plain', body: llms },
      '/.well-known/ai-catalog.json': json({ specVersion: '0.1', host: '{domain}', entries: [{ ...ardEntry, type: 'application/json' }] }),
      '/.well-known/mcp.json': json({ version: '1.0', protocolVersion: '2025-06-18', serverInfo: { name: 'example', version: '1.0.0' }, transport: { type: 'streamable-http', endpoint: '/mcp' } }),
      '/.well-known/agent-card.json': json({ name: 'Example agent', description: 'Answers', url: 'https://{domain}/a2a', preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] }),
    },
    expect: {
      headline: 'open',
      previewChecks: {
        'discovery.ard': ['pass', 'ai-catalog.json (before ARD v0.91)'],
        'discovery.a2a-card-v1': ['fail', 'A2A v0.3 (legacy)'],
        'discovery.mcp-card-shape': ['pass', 'SEP-1649 (superseded) (legacy path)'],
        'discovery.llms-txt-v2': ['fail', 'llms.txt v1 (/llms.txt only)'],
        'policy.preferences-agree': ['fail', 'aipref Content-Usage and Content Signals'],
      },
    },
  },
];
