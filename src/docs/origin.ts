// The files a well-kept origin publishes for crawlers and agents, for this service's own
// origin: robots.txt with explicit groups for every AI agent of the roster and a
// Content-Signal, a sitemap of the public documents, security.txt (RFC 9116) and the RFC 9727
// API catalog. Built once per origin by the composition root.
import { getRoster } from '../scanner/roster.ts';
import { ROSTER_VERSION } from '../scanner/versions.ts';

export interface OriginFiles {
  robotsTxt: string;
  sitemapXml: string;
  securityTxt: string;
  apiCatalog: string;
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

export function originFiles(o: OriginOptions): OriginFiles {
  return { robotsTxt: robots(o.baseUrl), sitemapXml: sitemap(o.baseUrl), securityTxt: security(o), apiCatalog: apiCatalog(o.baseUrl) };
}
