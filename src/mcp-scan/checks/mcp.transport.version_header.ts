import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, needsOpenEndpoint, pass, SPEC } from './util.ts';

/** An unsupported MCP-Protocol-Version header gets 400 (revisions 2025-06-18 and later). */
export const check: CheckDef = {
  id: 'mcp.transport.version_header',
  title: 'An invalid MCP-Protocol-Version header is refused',
  level: 'must',
  spec: `${SPEC}/basic/transports#protocol-version-header`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Version header');
    if (g) return g;
    if (!ev.versionHeader) {
      return inconclusive('not_applicable', ev.negotiatedVersion ? `Negotiated ${ev.negotiatedVersion}, which predates the header.` : 'No legacy version was negotiated.');
    }
    const gv = gate(ev.versionHeader, 'Version header');
    if (gv) return gv;
    const ex = ev.versionHeader;
    if (ex.status === 400) return pass('HTTP 400 for MCP-Protocol-Version: 1999-01-01.', ex);
    if (ex.status !== null && ex.status >= 200 && ex.status < 300) return fail(`HTTP ${ex.status}: the request was served despite the unknown version header.`, ex);
    return inconclusive('ambiguous', `HTTP ${ex.status}; the spec asks for 400.`, ex);
  },
};
