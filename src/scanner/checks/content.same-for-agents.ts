// Standard: same content for every user-agent (Google's cloaking guidance; RFC 9110 §12.5.5 Vary), judged page by page (issue 36 item 2).
import { ALL, inconclusive, matched, partial, rowsOf, type CheckDefinition } from './define.ts';

/** What was compared; an agent-serving product's header, when one was seen, is named after it. */
const GENERATION = 'title, visible text and canonical URL';
import { NETWORKS } from '../types.ts';

export const check: CheckDefinition = {
  id: 'content.same-for-agents', name: 'Agents get the browser\'s page, not one of their own', category: 'content', weight: 2, profiles: ALL, since: 'rubric-v1.3-preview',
  standard: 'The same title, visible text and canonical URL for agents as for browsers (no cloaking); edge products that serve agents pages of their own, such as Adobe LLM Optimizer\'s Optimize at Edge, declare it with a response header',
  why: 'An assistant quotes the page it was served. A page rewritten for agents (a different title, text or canonical URL) can say something the site\'s visitors never read, and its owner may not know an edge product serves it.',
  fix: 'Serve agents the page browsers get. If an edge product rewrites pages for agents, review what it serves and keep the title, main text and canonical URL those of the real page.',
  evaluate(ev) {
    let compared = 0;
    const off: string[] = [];
    let same = 0;
    const products = new Set<string>();
    for (const r of rowsOf(ev, ['user-fetch', 'search', 'training', 'archive'])) {
      const c = r.entry.content;
      if (!c) continue;
      const results = NETWORKS.map((n) => c[n]).filter((x) => x !== 'not-compared');
      if (results.length === 0) continue;
      compared++;
      for (const a of c.agentServing ?? []) products.add(a.product);
      if (results.every((x) => x === 'same')) same++;
      else off.push(`${r.agent.token} (${[...new Set(results.filter((x) => x !== 'same'))].join(', ')}${c.differs?.length ? `: ${c.differs.join(', ')}` : ''}${c.agentServing?.length ? `; ${c.agentServing[0]!.product}` : ''})`);
    }
    if (compared === 0) return inconclusive('no agent received a page that could be compared with the browser control');
    const credit = Math.floor((1000 * same) / compared);
    const generation = products.size ? `${GENERATION}; ${[...products].sort().join(', ')} seen` : GENERATION;
    return matched(generation, partial(credit, off.length ? `${off.length} of ${compared} agents got a page unlike the browser's: ${off.slice(0, 6).join(', ')}${off.length > 6 ? ` and ${off.length - 6} more` : ''}` : `all ${compared} compared agents got the browser's page`));
  },
};
