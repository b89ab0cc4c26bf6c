// Standard: X-Robots-Tag and meta robots (Google Search Central robots meta tag specification).
import { ALL, fail, homeMissing, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'policy.not-noindexed', name: 'The home page is not marked noindex', category: 'policy', weight: 4, profiles: ALL, since: 'rubric-v1.0',
  standard: 'X-Robots-Tag / meta robots (robots meta tag specification, Google Search Central)',
  why: 'A noindex left on production (often added by preview environments or an edge setting) hides the site from search and AI search.',
  fix: 'Remove noindex/none from the X-Robots-Tag header and meta robots outside preview deployments.',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const header = (ev.home!.headers['x-robots-tag'] ?? '').toLowerCase();
    if (/\b(noindex|none)\b/.test(header)) return fail(`X-Robots-Tag: ${header}`);
    for (const [name, content] of Object.entries(ev.page!.metaRobots)) {
      if (/\b(noindex|none)\b/.test(content)) return fail(`<meta name="${name}" content="${content}">`);
    }
    return pass('no noindex on the home page');
  },
};
