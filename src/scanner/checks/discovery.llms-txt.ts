// Standard: llms.txt proposal (llmstxt.org, 2024).
import { llmsTxt } from '../features.ts';
import { ALL, fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.llms-txt', name: 'llms.txt is published', category: 'discovery', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'llms.txt proposal (https://llmstxt.org/)',
  why: 'An llms.txt index gives agents a curated map of the site in Markdown, so they read the right pages first.',
  fix: 'Serve /llms.txt as text with an H1 title, a > summary and ## sections of [name](url) links.',
  evaluate(ev) {
    const l = llmsTxt(ev);
    if (l.state === 'present') return pass(`/llms.txt with ${l.links.length} link(s)`);
    if (l.state === 'unstructured') return partial(500, '/llms.txt exists but does not start with an H1 title');
    if (l.state === 'absent') return fail(`no /llms.txt${l.note ? ` (${l.note})` : ''}`);
    return inconclusive('/llms.txt could not be fetched');
  },
};
