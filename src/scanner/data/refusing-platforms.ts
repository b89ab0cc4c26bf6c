/**
 * Hosting and SaaS platforms whose own bot rules can answer for a site (issue 36 item 4), each
 * recognised ONLY by response headers that a public source documents, with that source. Fidelity:
 * published header fingerprints; no platform below documents these headers in its own reference,
 * so each source is the public page or fingerprint set that records them.
 * `fix` is the platform's documented owner setting when one exists, else null: the report then
 * says the platform's support must be asked.
 */

export interface RefusingPlatform {
  id: 'shopify' | 'zendesk' | 'wix' | 'squarespace' | 'webflow';
  name: string;
  /** Lower-case header name -> a value test (any value when absent). */
  headers: ReadonlyArray<{ name: string; value?: RegExp }>;
  source: string;
  fix: { setting: string; text: string; docUrl: string } | null;
  support: string;
}

export const REFUSING_PLATFORMS: readonly RefusingPlatform[] = [
  {
    id: 'shopify', name: 'Shopify',
    headers: [{ name: 'x-shopid' }, { name: 'x-sorting-hat-shopid' }, { name: 'x-storefront-renderer-rendered' }, { name: 'x-shopify-stage' }],
    source: 'https://http.dev/x-shopid and https://http.dev/x-storefront-renderer-rendered (X-ShopId, X-Sorting-Hat-ShopId, X-Storefront-Renderer-Rendered on Shopify storefronts); x-shopify-stage in public fingerprint sets',
    // The storefront's robots.txt.liquid is the merchant's; the edge's bot rules are Shopify's (anthropics/claude-code#44448).
    fix: null,
    support: 'https://help.shopify.com/en/questions',
  },
  {
    id: 'zendesk', name: 'Zendesk',
    headers: [{ name: 'x-zendesk-origin-server' }, { name: 'x-zendesk-request-id' }],
    source: 'intrigueio/intrigue-ident (Zendesk: unique header x-zendesk-origin-server); Zendesk help-centre answers carry it with x-zendesk-request-id',
    // Zendesk documents its own Cloudflare-based abuse protection in front of every help centre; no owner setting for AI bots (anthropics/claude-ai-mcp#80).
    fix: null,
    support: 'https://support.zendesk.com/hc/en-us/articles/4728116057626',
  },
  {
    id: 'wix', name: 'Wix',
    headers: [{ name: 'x-wix-request-id' }, { name: 'server', value: /^Pepyaka\b/i }],
    source: 'public fingerprint sets (x-wix-request-id; Server: Pepyaka)',
    fix: null,
    support: 'https://support.wix.com/en/contact',
  },
  {
    id: 'squarespace', name: 'Squarespace',
    headers: [{ name: 'server', value: /^Squarespace\b/i }],
    source: 'public fingerprint sets (Server: Squarespace)',
    fix: {
      setting: 'Settings > Crawlers > Block known artificial intelligence crawlers',
      text: 'Squarespace\'s documented AI-crawler setting writes robots.txt lines only; uncheck it if robots.txt should let these agents in. A refusal at Squarespace\'s edge itself is not an owner setting: ask Squarespace support.',
      docUrl: 'https://support.squarespace.com/hc/en-us/articles/360022347072',
    },
    support: 'https://support.squarespace.com/hc/en-us/requests/new',
  },
  {
    id: 'webflow', name: 'Webflow',
    headers: [{ name: 'x-wf-page-id' }, { name: 'x-wf-region' }],
    source: 'public fingerprint sets (x-wf-page-id, x-wf-region on Webflow-hosted sites)',
    fix: null,
    support: 'https://support.webflow.com/',
  },
];

/** The platform a response's headers name, with the header that decided ("x-shopid: 1234"). */
export function platformByHeaders(headers: Readonly<Record<string, string>>): { platform: RefusingPlatform; evidence: string } | undefined {
  for (const p of REFUSING_PLATFORMS) {
    for (const h of p.headers) {
      const v = headers[h.name];
      if (v !== undefined && (!h.value || h.value.test(v))) return { platform: p, evidence: `${h.name}: ${v.slice(0, 80)}` };
    }
  }
  return undefined;
}
