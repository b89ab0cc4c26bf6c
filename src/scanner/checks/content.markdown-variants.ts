// Standard: llms.txt proposal (.md twin of each page).
import { fileState } from '../evidence.ts';
import { inconclusive, partial, pass, skipped, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'content.markdown-variants', name: 'Pages have .md twins', category: 'content', weight: 3, profiles: ['dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'llms.txt proposal: page URL + .md',
  why: 'A Markdown twin of each page lets agents read documentation without parsing HTML.',
  fix: 'Publish each page also at its URL with .md appended (index.html.md for directories).',
  evaluate(ev) {
    const samples = Object.entries(ev.followups).filter(([k]) => k.startsWith('md-variant:')).map(([, v]) => v);
    if (!samples.length) return skipped('no pages to sample (no llms.txt or sitemap links)');
    const decided = samples.filter((v) => fileState(v) !== 'unknown');
    if (!decided.length) return inconclusive('no .md variant could be fetched');
    const ok = decided.filter((v) => fileState(v) === 'present').length; // an HTML page at the .md URL is no twin (file-judge.ts)
    const share = Math.floor((1000 * ok) / decided.length);
    return share >= 900 ? pass(`${ok} of ${decided.length} sampled pages have a .md twin`) : partial(share, `${ok} of ${decided.length} sampled pages have a .md twin`);
  },
};
