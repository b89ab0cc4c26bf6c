/**
 * The per-platform fix table, one module per platform (or family). Order is the order a report
 * lists platforms of the same role: edges and hosts first, then origins and the CMS.
 */
import { cloudflare } from './cloudflare.ts';
import { akamai, aws, azureFrontDoor, fastly, imperva } from './enterprise-edges.ts';
import { netlify } from './netlify.ts';
import { apache, caddy, nginx, wordpress } from './origins.ts';
import type { PlatformEntry } from './types.ts';
import { vercel } from './vercel.ts';
import { SEO_PLUGINS } from './seo-plugins.ts';

export { SEO_PLUGINS, type PluginEntry, type FileMarker } from './seo-plugins.ts';

export type { FixContext, FixEntry, OriginSnippet, PlatformEntry, PlatformRole } from './types.ts';
export { APACHE_LINK, APACHE_MARKDOWN, CADDY_LINK, CADDY_MARKDOWN, NGINX_LINK, NGINX_MARKDOWN } from './origins.ts';

export const PLATFORMS: readonly PlatformEntry[] = [cloudflare, vercel, netlify, akamai, fastly, aws, azureFrontDoor, imperva, nginx, apache, caddy, wordpress,
  // issue 37 item 6: SEO plugins that write llms.txt / robots.txt, by their documented or captured markers.
  ...SEO_PLUGINS];
