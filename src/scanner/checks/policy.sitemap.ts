// Standard: sitemaps.org protocol 0.9; Sitemap lines in robots.txt.
import { insteadNote } from '../file-judge.ts';
import { fileState } from '../evidence.ts';
import { ALL, fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'policy.sitemap', name: 'A sitemap is published', category: 'policy', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'sitemaps.org protocol 0.9',
  why: 'A sitemap lets crawlers and agents find every page without guessing links.',
  fix: 'Publish /sitemap.xml (urlset or sitemapindex) and reference it with a Sitemap: line in robots.txt.',
  evaluate(ev) {
    const candidates = [ev.files['/sitemap.xml'], ev.followups['sitemap:robots']].filter((v) => v !== undefined);
    const valid = candidates.find((v) => fileState(v) === 'present' && /<(urlset|sitemapindex)[\s>]/i.test(v.body));
    if (valid) return pass(`valid sitemap at ${valid.record.url}`);
    const present = candidates.find((v) => fileState(v) === 'present');
    if (present) return partial(500, `${present.record.url} exists but is not a urlset or sitemapindex`);
    if (candidates.every((v) => fileState(v) === 'absent')) return fail(`${ev.robots.sitemaps.length ? 'the sitemap robots.txt names could not be found' : 'no sitemap at /sitemap.xml and none named in robots.txt'}${candidates.map((v) => insteadNote(v)).find(Boolean) ?? ''}`);
    return inconclusive('the sitemap could not be fetched');
  },
};
