/**
 * Round-two plan: what round one pointed at. Pure: the same evidence always
 * gives the same plan (sorted, capped samples; no randomness).
 */
import type { ScanEvidence } from './evidence.ts';
import { llmsTxt, sampleLinks, serviceDescUrls } from './features.ts';
import { alternateFollower, markdownAlternate } from './markdown.ts';
import { cardUrlsToFollow, MCP_CARD_KEY } from './mcp-discovery.ts';
import { cardKeyUrls, keyFollowupKey } from './a2a-signatures.ts';

/** Same-site llms.txt links followed (sorted, first n): what rubric-v1.2-preview's discovery.llms-txt-links scores. */
export const LLMS_LINK_FOLLOW = 10;
/** The first of them, which rubric-v1.1's discovery.llms-txt-links scores and the .md twins are sampled from, as before. */
export const LLMS_LINK_SAMPLE = 5;
export const MD_VARIANT_SAMPLE = 3;
export const SERVICE_DESC_SAMPLE = 2;

function sameSite(ev: ScanEvidence, url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && (u.hostname === ev.domain || u.hostname.endsWith(`.${ev.domain}`));
  } catch {
    return false;
  }
}

function mdTwin(url: string): string {
  const u = new URL(url);
  u.pathname = u.pathname.endsWith('/') ? `${u.pathname}index.html.md` : `${u.pathname}.md`;
  u.search = '';
  return u.href;
}

export function planFollowups(ev: ScanEvidence): Array<[string, string]> {
  const plan: Array<[string, string]> = [];
  const fetched = new Set(Object.values(ev.files).map((f) => f.record.url));
  const base = `https://${ev.domain}/`;

  // Sitemaps often live on another host (a CDN, a sitemap service); the egress guards that host like any other.
  const sitemap = ev.robots.sitemaps.map((s) => { try { return new URL(s, base).href; } catch { return ''; } }).find((s) => /^https?:\/\//.test(s));
  if (sitemap && !fetched.has(sitemap)) plan.push(['sitemap:robots', sitemap]);

  const llms = llmsTxt(ev);
  const links = llms.state === 'present' || llms.state === 'unstructured' ? sampleLinks(ev, llms.links, LLMS_LINK_FOLLOW) : [];
  for (const l of links) plan.push([`llms-link:${l}`, l]);
  for (const l of links.slice(0, LLMS_LINK_SAMPLE).filter((x) => !/\.(md|txt)$/i.test(new URL(x).pathname)).slice(0, MD_VARIANT_SAMPLE)) plan.push([`md-variant:${l}`, mdTwin(l)]);

  // Codex CLI reads the page's Markdown alternate (a <link> or a Link header) instead of negotiating.
  const alternate = markdownAlternate(ev);
  const follower = alternateFollower();
  if (alternate && follower && sameSite(ev, alternate)) plan.push([`markdown:${follower.id}`, alternate]);

  const canonical = ev.page?.links.find((l) => l.rel.includes('canonical'))?.href;
  if (canonical && sameSite(ev, canonical) && ev.home && canonical !== ev.home.record.finalUrl) plan.push(['canonical', canonical]);

  for (const url of serviceDescUrls(ev).filter((u) => sameSite(ev, u) && !fetched.has(u)).slice(0, SERVICE_DESC_SAMPLE)) plan.push([`service-desc:${url}`, url]);

  // issue 37 item 1: the MCP server cards a catalog lists, wherever they live (the draft lets a catalog
  // name cards on other hosts); the egress guards each host like the sitemap's.
  for (const url of cardUrlsToFollow(ev)) if (!fetched.has(url)) plan.push([`${MCP_CARD_KEY}${url}`, url]);

  // The key sets a signed A2A card names (any https host: the egress guards it like every hop).
  for (const url of cardKeyUrls(ev)) plan.push([keyFollowupKey(url), url]);

  const license = ev.robots.extensions.find((e) => e.field === 'license')?.value;
  if (license) {
    try {
      const u = new URL(license, base).href;
      if (u.startsWith('https:')) plan.push(['license', u]);
    } catch { /* not a URL: the check reports it */ }
  }
  return plan;
}
