// Standard: llms.txt proposal (links are the index, .md files the Markdown it promises); RFC 9110 status semantics.
// rubric-v1.2-preview's definition of discovery.llms-txt-links: same id, weight and profiles, new evidence.
import { judgeLink, type LinkOutcome } from '../../file-judge.ts';
import { llmsTxt, sampleLinks, type LlmsTxt } from '../../features.ts';
import { LLMS_LINK_FOLLOW } from '../../followups.ts';
import type { ScanEvidence } from '../../evidence.ts';
import { check as current } from '../discovery.llms-txt-links.ts';
import { inconclusive, partial, pass, skipped, type CheckDefinition } from '../define.ts';

/** A link promises Markdown when its URL is a Markdown file or llms.txt calls it Markdown. */
function promisesMarkdown(ev: ScanEvidence, l: LlmsTxt, url: string): boolean {
  if (/\.(md|markdown|mdx)$/i.test(new URL(url).pathname)) return true;
  return l.entries.some((e) => {
    try {
      return new URL(e.href, `https://${ev.domain}/`).href === url && /\bmarkdown\b/i.test(`${e.title} ${e.note}`);
    } catch {
      return false;
    }
  });
}

const GROUPS: ReadonlyArray<[LinkOutcome, string]> = [
  ['dead', 'dead'],
  ['not-found-page', 'a “not found” page served as a success'],
  ['html-for-markdown', 'an HTML page where Markdown was promised'],
  ['empty', 'empty'],
];

export const check: CheckDefinition = {
  id: 'discovery.llms-txt-links', name: current.name, category: current.category, weight: current.weight, profiles: current.profiles, since: current.since,
  standard: 'llms.txt proposal (https://llmstxt.org/): the links are the index and .md links promise Markdown; RFC 9110 status codes',
  why: 'Dead links in the index send agents to error pages instead of the content, and a .md link that lands on the site\'s HTML shell gives an agent no Markdown at all; one public validator found 16 % of a well-known project\'s llms.txt links answering 404 (portdeveloper/llms-txt-check).',
  fix: 'Prune or fix the links in /llms.txt that answer 4xx or 5xx or a "not found" page, and serve real Markdown at every .md URL it lists instead of the site\'s HTML shell.',
  revision: `follows up to ${LLMS_LINK_FOLLOW} same-site links instead of 5, counts a 5xx as dead, and counts a "not found" page served as a success, and an HTML page where Markdown was promised, as not resolving`,
  evaluate(ev) {
    const l = llmsTxt(ev);
    if (l.state !== 'present' && l.state !== 'unstructured') return skipped('no llms.txt to follow');
    const urls = sampleLinks(ev, l.links, LLMS_LINK_FOLLOW);
    if (!urls.length) return skipped('llms.txt has no same-site links to follow');
    const judged = urls.map((url) => ({ url, ...judgeLink(ev.followups[`llms-link:${url}`], promisesMarkdown(ev, l, url)) }));
    const decided = judged.filter((j) => j.outcome !== 'unknown');
    if (!decided.length) return inconclusive(`none of the ${urls.length} links followed could be fetched`);
    const ok = decided.filter((j) => j.outcome === 'resolves').length;
    const share = Math.floor((1000 * ok) / decided.length);
    const parts = [`${ok} of ${decided.length} links resolve (${Math.floor(share / 10)} %)`];
    for (const [outcome, label] of GROUPS) {
      const these = decided.filter((j) => j.outcome === outcome);
      if (these.length) parts.push(`${these.length} ${label}: ${these.map((j) => `${new URL(j.url).pathname}${outcome === 'dead' ? ` (${j.words})` : ''}`).join(', ')}`);
    }
    const undecided = judged.length - decided.length;
    if (undecided) parts.push(`${undecided} could not be fetched`);
    const total = sampleLinks(ev, l.links, Number.MAX_SAFE_INTEGER).length;
    if (total > urls.length) parts.push(`followed the first ${urls.length} of ${total} same-site links`);
    const detail = parts.join('; ');
    if (share === 1000) return pass(detail);
    return partial(share >= 900 ? share : Math.min(share, 499), detail);
  },
};
