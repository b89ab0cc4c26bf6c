import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, needsOpenEndpoint, pass, SPEC } from './util.ts';

/** GET with Accept: text/event-stream returns an event stream or 405 (removed in 2026-07-28, where 405 is the answer). */
export const check: CheckDef = {
  id: 'mcp.transport.get',
  title: 'GET opens an event stream or answers 405',
  level: 'must',
  spec: `${SPEC}/basic/transports#listening-for-messages-from-the-server`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'GET');
    if (g) return g;
    const ex = ev.get;
    if (ex?.verdict === 'timeout') return inconclusive('timeout', 'No bytes within 2 s: an idle event stream, or a stalled server; the two look alike from here.', ex);
    const gg = gate(ex, 'GET');
    if (gg || !ex) return gg!;
    if (ex.isSse && ex.status === 200) return pass('200 text/event-stream.', ex);
    if (ex.status === 405) return pass('405 Method Not Allowed: the server offers no GET stream.', ex);
    return fail(`HTTP ${ex.status} ${ex.contentType || ''}: neither an event stream nor 405.`.replace(/ +:/, ':'), ex);
  },
};
