// Standard: RFC 9110 §12 content negotiation (Accept: text/markdown; Vary); RFC 7763 text/markdown.
import { fileState, isHtml } from '../evidence.ts';
import { ALL, fail, homeMissing, inconclusive, meanThousandths, partial, pass, type CheckDefinition } from './define.ts';
import { describeArrival, markdownArrivals, variesOnAccept, type MarkdownArrival } from '../markdown.ts';

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

/**
 * rubric-v1.2-preview's revision (same id and weight): Markdown the way each agent asks for it.
 * Every agent that asks for Markdown in its own Accept (Claude Code as Claude-User, Cursor) is
 * asked as it asks, and the page's Markdown alternate is followed as Codex CLI follows it.
 * When the answer depends on Accept, both the Markdown and the HTML answers must say Vary: Accept,
 * or a shared cache hands one agent's answer to the other.
 */
export const perAgent: CheckDefinition = {
  ...check,
  standard: 'RFC 9110 §12 (content negotiation, q-values) and §12.5.5 (Vary); RFC 7763 (text/markdown); RFC 8288 (rel="alternate")',
  why: 'Claude Code and Cursor ask for Markdown in their Accept; Codex CLI follows a rel="alternate" type="text/markdown" link. Each gets Markdown only if the site answers the request as that agent sends it.',
  fix: 'Answer any Accept that lists text/markdown (q-values included) with Content-Type: text/markdown, send Vary: Accept on the Markdown and the HTML answers alike, and link the Markdown twin with <link rel="alternate" type="text/markdown">.',
  evaluate(ev) {
    const arrivals = markdownArrivals(ev);
    const lines = arrivals.map(describeArrival);
    const got = (a: MarkdownArrival) => a.received === 'markdown' || a.received === 'markdown-as-text';
    const askers = arrivals.filter((a) => a.asks === 'accept' && a.received !== 'unknown' && a.received !== 'denied');
    const follower = arrivals.find((a) => a.asks === 'alternate' && a.received !== 'unknown');
    if (askers.length === 0) {
      if (follower && got(follower)) return partial(300, [...lines, 'no agent that asks for Markdown by Accept could be answered; only the alternate link serves it'].join('; '));
      return inconclusive(lines.length ? `no request asking for Markdown could be completed: ${lines.join('; ')}` : 'no agent that asks for Markdown was asked');
    }
    let value = meanThousandths(askers.map((a) => (a.received === 'markdown' ? 1000 : a.received === 'markdown-as-text' ? 500 : 0)));
    const problems: string[] = [];
    if (askers.some(got)) {
      const missing = [...askers.filter((a) => got(a) && !a.vary).map((a) => `the Markdown answer to ${a.label}`), ...(ev.home && !variesOnAccept(ev.home) ? ['the HTML answer to the browser'] : [])];
      if (missing.length) {
        value = Math.floor((value * 7) / 10);
        problems.push(`the answer depends on Accept but ${missing.join(' and ')} ${missing.length > 1 ? 'lack' : 'lacks'} Vary: Accept`);
      }
    }
    if (follower && !got(follower)) {
      value = Math.min(value, 700);
      problems.push('the page\'s Markdown alternate does not lead to Markdown');
    }
    if (value === 0 && follower && got(follower)) value = 300;
    return partial(value, [...lines, ...problems].join('; '));
  },
};
