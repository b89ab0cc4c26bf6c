import type { CheckDef } from '../types.ts';
import { needsTools } from './tools-gate.ts';
import { fail, pass, SPEC } from './util.ts';

/** Every tool has a description: models choose tools by reading it. */
export const check: CheckDef = {
  id: 'mcp.tools.descriptions',
  title: 'Every tool has a description',
  level: 'should',
  spec: `${SPEC}/server/tools#tool`,
  evaluate(ev) {
    const t = needsTools(ev, 'Tool descriptions');
    if (!('tools' in t)) return t;
    const missing = t.tools.filter((x) => typeof x.description !== 'string' || x.description.trim() === '').map((x) => String(x.name));
    if (missing.length > 0) return fail(`${missing.length} tool(s) without a description: ${missing.slice(0, 10).join(', ')}.`);
    return pass(`All ${t.tools.length} tools are described.`);
  },
};
