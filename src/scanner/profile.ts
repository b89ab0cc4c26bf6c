/**
 * Profile auto-detection (verdicts.md "Other report fields"): deterministic,
 * first match in the order dev-platform, docs, publisher, general; the
 * reason is recorded in the report's reasons.
 */
import { fileState, parseJson, type ScanEvidence } from './evidence.ts';
import { isOpenApi, llmsTxt, mcpManifest, serviceDescUrls } from './features.ts';
import type { Profile } from './types.ts';

export interface ProfileChoice { profile: Profile | null; reason: string }

function isArticleType(t: unknown): boolean {
  const types = Array.isArray(t) ? t : [t];
  return types.some((x) => typeof x === 'string' && /^(Article|NewsArticle|BlogPosting|Blog|Report)$/.test(x));
}

function jsonLdTypes(blocks: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const b of blocks) {
    try {
      const doc = JSON.parse(b) as unknown;
      for (const item of Array.isArray(doc) ? doc : [doc]) {
        const o = item as Record<string, unknown> | null;
        if (!o || typeof o !== 'object') continue;
        out.push(o['@type']);
        if (Array.isArray(o['@graph'])) for (const g of o['@graph'] as Array<Record<string, unknown>>) out.push(g?.['@type']);
      }
    } catch { /* unparseable JSON-LD carries no type */ }
  }
  return out;
}

export function detectProfile(ev: ScanEvidence, pinned?: Profile): ProfileChoice {
  if (pinned) return { profile: pinned, reason: `Profile ${pinned}: pinned by the request.` };
  if (!ev.home || !ev.page) return { profile: null, reason: 'Profile: none, because the home page could not be measured; scoring uses the general checks.' };
  if (fileState(ev.files['/.well-known/api-catalog']) === 'present') return { profile: 'dev-platform', reason: 'Profile dev-platform: an API catalog (/.well-known/api-catalog) was found.' };
  if (serviceDescUrls(ev).length || ['/openapi.json', '/.well-known/openapi.json'].some((p) => isOpenApi(parseJson(ev.files[p])))) {
    return { profile: 'dev-platform', reason: 'Profile dev-platform: an API description was found.' };
  }
  if (mcpManifest(ev)) return { profile: 'dev-platform', reason: 'Profile dev-platform: an MCP endpoint is advertised.' };
  if (llmsTxt(ev, '/llms-full.txt').state === 'present' || llmsTxt(ev).state === 'present') return { profile: 'docs', reason: 'Profile docs: an llms.txt index was found.' };
  if (/\b(docs|documentation|developer guide)\b/i.test(ev.page.title)) return { profile: 'docs', reason: 'Profile docs: the home page is a documentation site.' };
  const feed = ev.homeLinks.some((l) => l.rel.includes('alternate') && /(rss|atom)\+xml/.test(l.type));
  const sitemap = ev.files['/sitemap.xml'];
  const news = sitemap !== undefined && fileState(sitemap) === 'present' && /xmlns:news=/.test(sitemap.body);
  if (jsonLdTypes(ev.page.jsonLd).some(isArticleType) || ev.page.ogType === 'article' || feed || news) {
    return { profile: 'publisher', reason: `Profile publisher: ${feed ? 'a news feed' : news ? 'a news sitemap' : 'article markup'} was found.` };
  }
  return { profile: 'general', reason: 'Profile general: no API, documentation or publishing signal dominates.' };
}
