import type { CheckDef } from '../types.ts';
import { needsTools } from './tools-gate.ts';
import { fail, isObject, pass, SPEC } from './util.ts';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/** Annotations, when present, are well typed: hints boolean, title a string. */
export const check: CheckDef = {
  id: 'mcp.tools.annotations',
  title: 'Tool annotations are well typed',
  level: 'may',
  spec: `${SPEC}/server/tools#tool`,
  evaluate(ev) {
    const t = needsTools(ev, 'Tool annotations');
    if (!('tools' in t)) return t;
    const wrong: string[] = [];
    let annotated = 0;
    for (const tool of t.tools) {
      if (tool.annotations === undefined) continue;
      if (!isObject(tool.annotations)) {
        wrong.push(`${String(tool.name)}: annotations is not an object`);
        continue;
      }
      annotated += 1;
      for (const h of HINTS) if (h in tool.annotations && typeof tool.annotations[h] !== 'boolean') wrong.push(`${String(tool.name)}.${h}`);
      if ('title' in tool.annotations && typeof tool.annotations.title !== 'string') wrong.push(`${String(tool.name)}.title`);
    }
    if (wrong.length > 0) return fail(`Mistyped annotations: ${wrong.slice(0, 10).join(', ')}.`);
    return pass(`${annotated} of ${t.tools.length} tools carry annotations; all well typed.`);
  },
};
