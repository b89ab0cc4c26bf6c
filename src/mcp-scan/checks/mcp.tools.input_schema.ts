import type { CheckDef } from '../types.ts';
import { schemaIssue } from '../schema.ts';
import { needsTools } from './tools-gate.ts';
import { fail, pass, SPEC } from './util.ts';

/** inputSchema (and outputSchema when given) is an object schema that compiles (Ajv, 2020-12 by default). */
export const check: CheckDef = {
  id: 'mcp.tools.input_schema',
  title: 'Tool schemas are valid JSON Schema objects',
  level: 'must',
  spec: `${SPEC}/server/tools#tool`,
  evaluate(ev) {
    const t = needsTools(ev, 'Tool schemas');
    if (!('tools' in t)) return t;
    const issues = t.tools.flatMap((tool) => {
      const found = [schemaIssue(tool.inputSchema, 'inputSchema')];
      if (tool.outputSchema !== undefined) found.push(schemaIssue(tool.outputSchema, 'outputSchema'));
      return found.filter((i): i is string => i !== null).map((i) => `${String(tool.name)}: ${i}`);
    });
    if (issues.length > 0) return fail(`${issues.length} schema issue(s): ${issues.slice(0, 8).join('; ')}.`);
    return pass(`All ${t.tools.length} tool schemas compile.`);
  },
};
