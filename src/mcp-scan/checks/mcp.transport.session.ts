import type { CheckDef } from '../types.ts';
import { fail, needsOpenEndpoint, pass, SPEC } from './util.ts';

/** A session id, if issued, uses only visible ASCII (0x21-0x7E). */
export const check: CheckDef = {
  id: 'mcp.transport.session',
  title: 'Session ids are well formed',
  level: 'must',
  spec: `${SPEC}/basic/transports#session-management`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Session');
    if (g) return g;
    const sid = ev.sessionId;
    if (sid === null) return pass('No Mcp-Session-Id: a stateless server.', ev.init);
    if (/^[\x21-\x7e]+$/.test(sid)) return pass(`Stateful: session id of ${sid.length} visible ASCII characters.`, ev.init);
    return fail('Mcp-Session-Id contains characters outside visible ASCII.', ev.init);
  },
};
