// Standard: llms.txt proposal; size thresholds from the agent-docs-spec (agent truncation).
import { llmsTxt } from '../features.ts';
import { fail, partial, pass, skipped, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.llms-txt-size', name: 'llms.txt fits an agent context', category: 'discovery', weight: 2, profiles: ['dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'llms.txt proposal; agent-docs-spec size thresholds',
  why: 'Agents truncate long files; an index over 100,000 characters loses its tail.',
  fix: 'Keep /llms.txt under 50,000 characters; split large sites into nested llms.txt files.',
  evaluate(ev) {
    const l = llmsTxt(ev);
    if (l.state !== 'present' && l.state !== 'unstructured') return skipped('no llms.txt to measure');
    if (l.chars < 50_000) return pass(`${l.chars} characters`);
    if (l.chars <= 100_000) return partial(500, `${l.chars} characters (over 50,000)`);
    return fail(`${l.chars} characters (over 100,000)`);
  },
};
