// Standard: HTML content without script execution (WHATWG HTML; agent-docs-spec rendering-strategy).
import { ALL, fail, homeMissing, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'content.server-rendered', name: 'The main content is in the HTML', category: 'content', weight: 8, profiles: ALL, since: 'rubric-v1.0',
  standard: 'WHATWG HTML served without script execution (agent-docs-spec: rendering strategy)',
  why: 'Most agents do not run JavaScript; an empty application shell reads as an empty page to them.',
  fix: 'Render the primary content on the server (SSR or static generation).',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const len = ev.page!.text.length;
    if (ev.page!.appShell) return fail(`an empty application shell (${len} characters of text)`);
    if (len >= 500) return pass(`${len} characters of text without running scripts`);
    if (len < 100) return fail(`only ${len} characters of text without running scripts`);
    return partial(Math.floor(((len - 100) * 1000) / 400), `${len} characters of text without running scripts`);
  },
};
