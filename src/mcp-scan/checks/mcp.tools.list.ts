import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, needsOpenEndpoint, pass, rpcError, SPEC } from './util.ts';

/** tools/list returns a `tools` array; pagination ends and never loops. */
export const check: CheckDef = {
  id: 'mcp.tools.list',
  title: 'tools/list returns the tool list',
  level: 'must',
  spec: `${SPEC}/server/tools#listing-tools`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'tools/list');
    if (g) return g;
    const first = ev.toolsPages[0];
    if (!first) return inconclusive('not_applicable', 'The server declares no tools capability.', ev.init);
    const gf = gate(first, 'tools/list');
    if (gf) return gf;
    if (ev.tools === null) {
      const err = rpcError(first.rpc);
      return fail(err ? `tools/list failed with error ${err.code} ${err.message}.` : 'tools/list did not return a tools array.', first);
    }
    const last = ev.toolsPages.at(-1)!;
    if (ev.cursorLoop) return fail('Pagination loops: a nextCursor came back twice.', last);
    const badCursor = ev.toolsPages.find((p) => { const c = p.rpc?.result?.nextCursor; return c !== undefined && typeof c !== 'string'; });
    if (badCursor) return fail('nextCursor is present but not a string.', badCursor);
    const brokenPage = ev.toolsPages.find((p, i) => i > 0 && (p.verdict !== 'rpc' || !Array.isArray(p.rpc?.result?.tools)));
    if (brokenPage) return fail('A later page did not return a tools array.', brokenPage);
    const capped = ev.pagesCapped ? ' (stopped paging at the request budget)' : '';
    return pass(`${ev.tools.length} tool(s) in ${ev.toolsPages.length} page(s)${capped}.`, first);
  },
};
