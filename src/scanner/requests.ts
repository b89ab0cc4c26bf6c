/**
 * Every kind of request a scan makes, keyed by the evidence key (or key prefix) it carries.
 * probeMethod and /methodology.md are written from this list, and the world-scenario test
 * checks that every evidence key of every scan belongs to a kind listed here, so the
 * disclosure cannot fall behind what the gatherer really asks for.
 */
import { AUX_PATHS } from './gather.ts';

/** The network robots.txt and the site files are read from, as the disclosure names it. */
const ROBOTS_NETWORK_WORDS = 'networkA (networkB when networkA has no route)';
import { MCP_CARD_FOLLOW } from './mcp-discovery.ts';
import { LLMS_LINK_FOLLOW, LLMS_LINK_SAMPLE, MD_VARIANT_SAMPLE, SERVICE_DESC_SAMPLE } from './followups.ts';

export interface RequestKind {
  /** The evidence key, or a prefix ending in ':' for a family of keys. */
  key: string;
  what: string;
}

export const REQUEST_KINDS: readonly RequestKind[] = [
  { key: 'control:browser', what: 'the home page as a current stable Chrome navigates to it (its whole header set, in its order), once per network (the control)' },
  { key: 'grid:', what: 'the home page once per network as each roster agent sends it (its published User-Agent, Accept and other headers)' },
  { key: 'robots:browser', what: '/robots.txt with the browser\'s headers, from each network' },
  { key: 'robots:', what: `/robots.txt as each roster agent sends it, from ${ROBOTS_NETWORK_WORDS}, and again from the other network as each agent whose copy said something else than the browser's (a round-two request)` },
  { key: 'content:markdown', what: 'the home page with the browser\'s headers and Accept: text/markdown' },
  { key: 'markdown:', what: 'the home page as each product that asks for Markdown in its own Accept sends it (Claude Code as Claude-User, Cursor), and the page\'s rel="alternate" type="text/markdown" link (same site only) as Codex CLI follows it' },
  { key: 'wba:unsigned', what: 'the home page once per network as agent-readiness itself (our own User-Agent, unsigned)' },
  { key: 'wba:signed', what: 'the same request signed with Web Bot Auth as agent-readiness (never as any vendor), with our key directory as Signature-Agent; each request and each redirect hop is signed as it is sent, with its own nonce' },
  { key: 'file:', what: `the conventional and well-known files ${AUX_PATHS.join(', ')}, with the browser's headers, from networkB when both networks' browser controls passed (else from networkA, or networkB when networkA has no route)` },
  { key: 'sitemap:robots', what: 'the sitemap robots.txt names, which may live on another host' },
  { key: 'llms-link:', what: `up to ${LLMS_LINK_FOLLOW} same-site links listed in llms.txt (the first in sorted order; rubric-v1.1 scores the first ${LLMS_LINK_SAMPLE}), to see whether each resolves` },
  { key: 'md-variant:', what: `the .md twins of up to ${MD_VARIANT_SAMPLE} of the first ${LLMS_LINK_SAMPLE} of those links` },
  { key: 'canonical', what: 'the home page\'s canonical URL when it differs (same site only)' },
  { key: 'service-desc:', what: `up to ${SERVICE_DESC_SAMPLE} same-site API descriptions named by service-desc links` },
  { key: 'mcp-card:', what: `up to ${MCP_CARD_FOLLOW} MCP server cards listed in /.well-known/mcp/catalog.json or /.well-known/ai-catalog.json, which may live on another host, asked for as application/mcp-server-card+json` },
  { key: 'license', what: 'the licence file robots.txt names (RSL), which may live on another host' },
  { key: 'a2a-keys:', what: 'the JWK Sets (jku or jwks_uri) the signatures of the A2A agent card name, at most four signatures, on whatever https host they name (guarded like every request)' },
  { key: 'dns:', what: 'five DNS lookups for the domain (_agents SVCB; _agent, _ans, _x402 and _mcp TXT) by DNS over HTTPS (RFC 8484 GET) to the configured resolver, never the host\'s resolver, through networkA, as agent-readiness; the first alone, then the other four together; they go to the resolver, not the site, so they take none of the site\'s slots, run beside the probes (started with the first, awaited after the last) and count in the per-scan budget' },
];

export function requestKindOf(key: string): RequestKind | undefined {
  return REQUEST_KINDS.find((k) => (k.key.endsWith(':') ? key.startsWith(k.key) : key === k.key));
}

/** The links listed in llms.txt this scan followed, by URL, as one sentence (none: empty). */
export function followedLinksSentence(followupKeys: readonly string[]): string {
  const urls = followupKeys.filter((k) => k.startsWith('llms-link:')).map((k) => k.slice('llms-link:'.length));
  return urls.length ? ` This scan followed ${urls.length} link${urls.length === 1 ? '' : 's'} listed in llms.txt: ${urls.join(', ')}.` : '';
}

/** The list as one sentence, for probeMethod. */
export function requestKindsSentence(): string {
  return `Every request it makes: ${REQUEST_KINDS.map((k) => k.what).join('; ')}.`;
}
