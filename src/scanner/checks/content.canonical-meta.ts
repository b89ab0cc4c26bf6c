// Standard: RFC 6596 (canonical link relation); WHATWG HTML title, meta description and lang.
import { ALL, homeMissing, partial, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'content.canonical-meta', name: 'Title, description, language and canonical', category: 'content', weight: 2, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 6596 (canonical); WHATWG HTML (title, meta description, lang)',
  why: 'These four say what the page is, in which language, and which URL to cite.',
  fix: 'Give every page a <title>, a meta description, <html lang> and one absolute same-site canonical link.',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const p = ev.page!;
    const have: string[] = [];
    const lack: string[] = [];
    (p.title ? have : lack).push('title');
    (p.metaDescription ? have : lack).push('description');
    (p.lang ? have : lack).push('lang');
    const canon = p.links.filter((l) => l.rel.includes('canonical'));
    let canonicalOk = false;
    if (canon.length === 1) {
      try {
        const u = new URL(canon[0]!.href);
        const follow = ev.followups['canonical'];
        canonicalOk = (u.hostname === ev.domain || u.hostname.endsWith(`.${ev.domain}`)) && (!follow || (follow.status >= 200 && follow.status < 300));
      } catch { /* relative or malformed: not an absolute canonical */ }
    }
    (canonicalOk ? have : lack).push('canonical');
    return partial(Math.floor((have.length * 1000) / 4), lack.length ? `missing or invalid: ${lack.join(', ')}` : 'all four present');
  },
};
