// Standard: llms.txt proposal (links are the index); RFC 9110 status semantics for the sampled targets.
import { fileState } from '../evidence.ts';
import { llmsTxt, sampleLinks } from '../features.ts';
import { LLMS_LINK_SAMPLE } from '../followups.ts';
import { inconclusive, partial, pass, skipped, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.llms-txt-links', name: 'llms.txt links resolve', category: 'discovery', weight: 2, profiles: ['dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'llms.txt proposal (https://llmstxt.org/)',
  why: 'Dead links in the index send agents to error pages instead of the content.',
  fix: 'Prune or fix links in /llms.txt that no longer resolve.',
  evaluate(ev) {
    const l = llmsTxt(ev);
    if (l.state !== 'present' && l.state !== 'unstructured') return skipped('no llms.txt to follow');
    // rubric-v1.1 scores the first LLMS_LINK_SAMPLE links in sorted order, as it always has; a
    // scan follows more, which rubric-v1.2-preview scores (checks/revised/discovery.llms-txt-links.ts).
    const samples = sampleLinks(ev, l.links, LLMS_LINK_SAMPLE).map((url) => ev.followups[`llms-link:${url}`]).filter((v) => v !== undefined);
    if (!samples.length) return skipped('llms.txt has no same-site links to sample');
    const decided = samples.filter((v) => fileState(v) !== 'unknown');
    if (!decided.length) return inconclusive('none of the sampled links could be fetched');
    const ok = decided.filter((v) => fileState(v) === 'present').length;
    const share = Math.floor((1000 * ok) / decided.length);
    const missed = decided.filter((v) => fileState(v) !== 'present').map((v) => `${new URL(v.record.url).pathname} (HTTP ${v.status}${v.status < 300 ? ', empty' : ''})`);
    const detail = `${ok} of ${decided.length} sampled links resolve${missed.length ? `; not resolving: ${missed.join(', ')}` : ''}`;
    if (share >= 900) return pass(detail);
    return partial(Math.min(share, 499), detail);
  },
};
