import type { CheckDef } from '../types.ts';
import { needsTools } from './tools-gate.ts';
import { fail, pass, SPEC } from './util.ts';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Tool names: 1-128 of [A-Za-z0-9_.-], unique per server (SEP-986). */
export const check: CheckDef = {
  id: 'mcp.tools.names',
  title: 'Tool names follow the naming rules',
  level: 'should',
  spec: `${SPEC}/server/tools#tool-names`,
  evaluate(ev) {
    const t = needsTools(ev, 'Tool names');
    if (!('tools' in t)) return t;
    const names = t.tools.map((x) => x.name);
    const bad = names.filter((n) => typeof n !== 'string' || !NAME.test(n)).map((n) => JSON.stringify(n));
    const dupes = names.filter((n, i) => names.indexOf(n) !== i).map((n) => JSON.stringify(n));
    if (bad.length || dupes.length) {
      return fail([bad.length ? `invalid: ${bad.slice(0, 10).join(', ')}` : '', dupes.length ? `duplicated: ${[...new Set(dupes)].join(', ')}` : ''].filter(Boolean).join('; ') + '.');
    }
    return pass(`All ${names.length} names are valid and unique.`);
  },
};
