// The discovery files a site publishes at a fixed path. A host or edge that serves files itself
// (Vercel, Netlify, Cloudflare Workers/Pages) gets one fix per file from the same words, so every
// file check names where that platform wants the file.
import type { FixEntry } from './types.ts';

export interface DiscoveryFile { path: string; what: string }

/** Check id → the file that makes it pass (its own check says what the file must hold). */
export const DISCOVERY_FILES: Readonly<Record<string, DiscoveryFile>> = {
  'discovery.llms-txt': { path: '/llms.txt', what: 'llms.txt' },
  'trust.security-txt': { path: '/.well-known/security.txt', what: 'security.txt (Contact: and a future Expires:)' },
  'policy.sitemap': { path: '/sitemap.xml', what: 'the sitemap' },
};

/** A Link header on the home page pointing agents at the machine-readable resources. */
export const HOME_LINK = '</sitemap.xml>; rel="sitemap", </llms.txt>; rel="llms-txt"';

export function staticFileFixes(build: (file: DiscoveryFile) => FixEntry): Record<string, () => FixEntry> {
  return Object.fromEntries(Object.entries(DISCOVERY_FILES).map(([check, file]) => [check, () => build(file)]));
}
