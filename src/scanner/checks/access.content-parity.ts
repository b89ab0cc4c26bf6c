// Standard: same content for every user-agent (Google cloaking guidance; HTTP Vary, RFC 9110 §12.5.5).
import { ALL, inconclusive, meanThousandths, partial, rowsOf, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'access.content-parity', name: 'Agents get the same page as browsers', category: 'access', weight: 4, profiles: ALL, since: 'rubric-v1.0',
  standard: 'Consistent content across user-agents (no cloaking); RFC 9110 §12.5.5 Vary when content is negotiated',
  why: 'Stripped or different pages for agent user-agents ("please enable JavaScript", teaser text) mislead assistants about what the site says.',
  fix: 'Serve the same HTML to every user-agent; if you do vary, declare it with Vary and keep the main text.',
  evaluate(ev) {
    const credits: number[] = [];
    const short: string[] = [];
    for (const r of rowsOf(ev, ['user-fetch', 'search', 'training', 'archive'])) {
      for (const n of r.passed) {
        const control = ev.controls[n];
        // textChars: the visible text the engine measured once per distinct body (engine.ts measureText).
        const controlText = control.record.textChars;
        if (controlText < 200) continue; // too little text to compare meaningfully
        const cell = ev.cells[r.agent.token]![n];
        const ratio = cell.record.textChars / controlText;
        const credit = ratio >= 0.7 ? 1000 : ratio < 0.3 ? 0 : Math.floor(((ratio - 0.3) * 1000) / 0.4);
        if (credit < 1000 && !short.includes(r.agent.token)) short.push(r.agent.token);
        credits.push(credit);
      }
    }
    if (credits.length === 0) return inconclusive('no agent received a page that could be compared with the browser control');
    return partial(meanThousandths(credits), short.length ? `less text than the browser for ${short.join(', ')}` : `${credits.length} agent responses carry the browser's text`);
  },
};
