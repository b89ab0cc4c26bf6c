// Standard: RFC 8288 (Web Linking); RFC 8631 (service-desc); RFC 9727 (api-catalog).
import { fail, homeMissing, pass, type CheckDefinition } from './define.ts';

const MACHINE_RELS = new Set(['api-catalog', 'service-desc', 'service-doc', 'describedby', 'sitemap', 'llms-txt', 'mcp-server-card']);

export const check: CheckDefinition = {
  id: 'discovery.link-headers', name: 'The home page links machine-readable resources', category: 'discovery', weight: 2, profiles: ['general', 'dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'RFC 8288 Web Linking; RFC 8631; RFC 9727',
  why: 'Link headers and <link> elements let an agent find the API description, catalog or Markdown version from the first response.',
  fix: 'Emit Link headers (or <link> elements) for api-catalog, service-desc, the sitemap or a text/markdown alternate.',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const hits = ev.homeLinks.filter((l) => l.rel.some((r) => MACHINE_RELS.has(r)) || (l.rel.includes('alternate') && l.type === 'text/markdown'));
    return hits.length ? pass(`advertises ${[...new Set(hits.flatMap((h) => h.rel))].join(', ')}`) : fail('no Link header or <link> advertises a machine-readable resource');
  },
};
