// Standard: llms.txt v2 (August 2026): discovery by link relations (AnswerDotAI/llms-txt changes.md).
import { llmsTxt } from '../features.ts';
import { ALL, homeMissing, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';

const LLMS = /\/llms(-full)?\.txt$/i;

export const check: CheckDefinition = {
  id: 'discovery.llms-txt-v2', name: 'Pages point agents to their llms.txt and Markdown version', category: 'discovery', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'llms.txt v2, August 2026: rel="describedby" and rel="alternate" type="text/markdown" (https://github.com/AnswerDotAI/llms-txt/blob/main/changes.md)',
  why: 'llms.txt v2 lets an agent that lands on any page find the llms.txt covering it (rel="describedby") and the page\'s Markdown (rel="alternate" type="text/markdown") without guessing paths; subpath files make this the only reliable way to find them (AnswerDotAI/llms-txt changes.md, August 2026).',
  fix: 'Add <link rel="describedby" href="/llms.txt"> and <link rel="alternate" type="text/markdown" href="/index.md"> to your pages (or the same as Link headers).',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const describedBy = ev.homeLinks.find((l) => l.rel.includes('describedby') && LLMS.test(l.href.split(/[?#]/)[0]!));
    const alternate = ev.homeLinks.find((l) => l.rel.includes('alternate') && /^text\/markdown\b/i.test(l.type));
    const v1 = llmsTxt(ev).state === 'present';
    if (describedBy && alternate) return matched('llms.txt v2 (describedby and Markdown alternate)', pass(`the home page links its llms.txt (${describedBy.href}) and its Markdown (${alternate.href})`));
    if (describedBy) return matched('llms.txt v2 (describedby)', partial(750, `the home page links its llms.txt (${describedBy.href}) but no Markdown alternate`));
    if (alternate) return matched('llms.txt v2 (Markdown alternate)', partial(750, `the home page links its Markdown (${alternate.href}) but not the llms.txt that covers it`));
    if (v1) return matched('llms.txt v1 (/llms.txt only)', partial(400, '/llms.txt exists but no page links to it: agents find it only by guessing the path'));
    return inconclusive('no llms.txt and no llms.txt links: not applicable (Lighthouse also treats a missing llms.txt as not applicable)');
  },
};
