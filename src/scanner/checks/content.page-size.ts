// Standard: agent context limits (agent-docs-spec page-size thresholds).
import { ALL, fail, homeMissing, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'content.page-size', name: 'The page fits an agent context', category: 'content', weight: 1, profiles: ALL, since: 'rubric-v1.0',
  standard: 'agent-docs-spec page-size thresholds',
  why: 'Agents truncate very long pages; text past the limit is never read.',
  fix: 'Keep pages under 50,000 characters of text; split long pages.',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    const len = ev.page!.text.length;
    if (len < 50_000) return pass(`${len} characters of text`);
    if (len <= 100_000) return partial(500, `${len} characters of text`);
    return fail(`${len} characters of text`);
  },
};
