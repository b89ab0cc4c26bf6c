// The files a well-kept origin publishes for crawlers and agents, for this service's own
// origin: robots.txt with explicit groups for every AI agent of the roster and a
// Content-Signal, a sitemap of the public documents, security.txt (RFC 9116) and the RFC 9727
// API catalog. Built once per origin by the composition root.
import { LEGACY_VERSIONS, MODERN_VERSION, SERVER_NAME, SERVER_VERSION } from '../mcp/types.ts';
import { getRoster } from '../scanner/roster.ts';
import { ROSTER_VERSION } from '../scanner/versions.ts';

export interface OriginFiles {
  robotsTxt: string;
  sitemapXml: string;
  securityTxt: string;
  apiCatalog: string;
  /** ARD v0.91 catalog (/.well-known/ard.json) and the same entries under the name it replaced. */
  ard: string;
  aiCatalog: string;
  /** The SEP-2127 MCP server card (v2 schema), at /mcp/server-card and the legacy /.well-known/mcp/server-card.json. */
  mcpServerCard: string;
  /** The MCP catalog (/.well-known/mcp/catalog.json) listing that card. */
  mcpCatalog: string;
}

/** The public documents, in sitemap order. */
export const PUBLIC_PATHS = ['/', '/methodology.md', '/agents.md', '/auth.md', '/llms.txt', '/openapi.json', '/api/checks', '/.well-known/mcp.json', '/privacy', '/terms'] as const;

export interface OriginOptions {
  baseUrl: string;
  /** security.txt Contact (mailto: or https:). */
  securityContact: string;
  /** When the security.txt expires (RFC 9116 requires it); a year after start-up. */
  expires: Date;
}

function robots(baseUrl: string): string {
  // Agents are welcome everywhere public, report permalinks included: an assistant asked to
  // read a report someone shared with it fetches /r/… as its user-fetch agent, which obeys
  // robots.txt. Reports stay out of search indexes by their noindex (X-Robots-Tag and meta),
  // which a crawler can only see on a page it may fetch (a Disallow would hide the noindex).
  // The operator pages need a bearer token; other crawlers are asked to skip them.
  const tokens = [...new Set(getRoster(ROSTER_VERSION).map((a) => a.token))];
  return `# agent-readiness welcomes AI agents: every agent of ${ROSTER_VERSION} has an explicit group below.
# How we measure sites: ${baseUrl}/methodology.md

User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=yes
Allow: /
Disallow: /internal/

${tokens.map((t) => `User-agent: ${t}`).join('\n')}
Content-Signal: search=yes, ai-input=yes, ai-train=yes
Allow: /

Sitemap: ${baseUrl}/sitemap.xml
`;
}

function sitemap(baseUrl: string): string {
  const urls = PUBLIC_PATHS.map((p) => `  <url><loc>${baseUrl}${p}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function security(o: OriginOptions): string {
  return `Contact: ${o.securityContact}
Expires: ${o.expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}
Preferred-Languages: en
Canonical: ${o.baseUrl}/.well-known/security.txt
Policy: ${o.baseUrl}/terms
`;
}

function apiCatalog(baseUrl: string): string {
  return `${JSON.stringify({
    linkset: [{
      anchor: `${baseUrl}/`,
      'service-desc': [{ href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
      'service-doc': [{ href: `${baseUrl}/methodology.md`, type: 'text/markdown' }, { href: `${baseUrl}/agents.md`, type: 'text/markdown' }],
      'service-meta': [{ href: `${baseUrl}/.well-known/mcp.json`, type: 'application/json' }],
    }],
  }, null, 2)}\n`;
}

/** SEP-2127's reverse-DNS server name, from the origin's host: agent-readiness.example -> example.agent-readiness/agent-readiness. */
export function serverCardName(baseUrl: string): string {
  return `${new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').split('.').reverse().join('.').replace(/[^a-zA-Z0-9.-]/g, '-')}/${SERVER_NAME}`;
}

function serverCard(baseUrl: string): string {
  const url = `${baseUrl}/mcp`;
  return `${JSON.stringify({
    $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
    name: serverCardName(baseUrl),
    title: 'agent-readiness',
    version: SERVER_VERSION,
    description: 'Scans websites for AI-agent readiness and lists the checks it applies.',
    websiteUrl: `${baseUrl}/`,
    remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: [MODERN_VERSION, ...LEGACY_VERSIONS] }],
  }, null, 2)}\n`;
}

/** Where the server-card extension reserves a server's card: its streamable-HTTP URL plus /server-card. */
export const cardUrl = (baseUrl: string): string => `${baseUrl}/mcp/server-card`;
const mcpIdentifier = (baseUrl: string) => `urn:air:${new URL(baseUrl).hostname}:mcp:agent-readiness`;

/** The MCP catalog (experimental-ext-server-card docs/discovery.md): one entry, our server's card. */
function mcpCatalog(baseUrl: string): string {
  return `${JSON.stringify({
    specVersion: 'draft',
    entries: [{ identifier: mcpIdentifier(baseUrl), displayName: 'agent-readiness MCP server', type: 'application/mcp-server-card+json', url: cardUrl(baseUrl) }],
  }, null, 2)}\n`;
}

function ardEntries(baseUrl: string): unknown[] {
  return [
    {
      identifier: mcpIdentifier(baseUrl), displayName: 'agent-readiness MCP server',
      type: 'application/mcp-server-card+json', url: cardUrl(baseUrl),
      representativeQueries: ['is this website ready for AI agents', 'does the edge block GPTBot on example.com', 'list the agent-readiness checks'],
    },
    {
      identifier: `urn:air:${new URL(baseUrl).hostname}:api:agent-readiness`, displayName: 'agent-readiness HTTP API',
      type: 'application/vnd.oai.openapi+json', url: `${baseUrl}/openapi.json`,
      representativeQueries: ['scan a domain for AI-agent readiness', 'get an archived agent-readiness report'],
    },
  ];
}

export function originFiles(o: OriginOptions): OriginFiles {
  const entries = ardEntries(o.baseUrl);
  return {
    robotsTxt: robots(o.baseUrl), sitemapXml: sitemap(o.baseUrl), securityTxt: security(o), apiCatalog: apiCatalog(o.baseUrl),
    ard: `${JSON.stringify({ entries }, null, 2)}\n`,
    aiCatalog: `${JSON.stringify({ specVersion: '0.91', host: new URL(o.baseUrl).host, entries }, null, 2)}\n`,
    mcpServerCard: serverCard(o.baseUrl),
    mcpCatalog: mcpCatalog(o.baseUrl),
  };
}
