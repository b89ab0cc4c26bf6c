// Standard: RFC 9110 §12 content negotiation (Accept: text/markdown; Vary); RFC 7763 text/markdown.
import { fileState, isHtml } from '../evidence.ts';
import { ALL, fail, homeMissing, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'content.markdown-negotiation', name: 'Markdown is served on request', category: 'content', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9110 §12 (content negotiation) and §12.5.5 (Vary); RFC 7763 (text/markdown)',
  why: 'Coding agents send Accept: text/markdown; Markdown is cheaper and cleaner for them than HTML.',
  fix: 'Answer Accept: text/markdown with a Markdown rendering (Content-Type: text/markdown) and Vary: Accept.',
  evaluate(ev) {
    const v = ev.markdown;
    if (fileState(v) === 'unknown') return inconclusive('the Markdown request could not be completed');
    const type = v.contentType.toLowerCase();
    const vary = (v.headers['vary'] ?? '').toLowerCase();
    if (type.startsWith('text/markdown') && !isHtml(v)) {
      return /(^|,)\s*(accept|\*)\s*(,|$)/.test(vary) ? pass('text/markdown with Vary: Accept') : partial(700, 'text/markdown served without Vary: Accept');
    }
    if (fileState(v) === 'present' && !isHtml(v) && /^\s*#\s/.test(v.body)) return partial(500, `Markdown served as ${type || 'no type'}`);
    if (!homeMissing(ev) && ev.homeLinks.some((l) => l.rel.includes('alternate') && l.type === 'text/markdown')) return partial(300, 'only a <link rel="alternate" type="text/markdown">');
    return fail('Accept: text/markdown still returns HTML');
  },
};
