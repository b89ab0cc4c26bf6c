import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, pass, SPEC } from './util.ts';

/** POST initialize gets a JSON-RPC response with our id, as JSON or SSE. */
export const check: CheckDef = {
  id: 'mcp.transport.post',
  title: 'POST carries JSON-RPC (Streamable HTTP)',
  level: 'must',
  spec: `${SPEC}/basic/transports#sending-messages-to-the-server`,
  evaluate(ev) {
    if (ev.legacySse) return inconclusive('legacy_transport', 'POST was refused but GET opened an HTTP+SSE stream with an endpoint event: the deprecated 2024-11-05 transport.', ev.legacySse);
    const ex = ev.init;
    const g = gate(ex, 'POST initialize');
    if (g) return g;
    if (!ex) return inconclusive('not_applicable', 'Not probed.');
    if (ex.verdict === 'rpc') {
      const ok = ex.status !== null && ex.status < 300 ? '' : ` (with HTTP ${ex.status})`;
      return pass(`JSON-RPC response with the matching id as ${ex.isSse ? 'text/event-stream' : 'JSON'}${ok}.`, ex);
    }
    if (ex.verdict === 'rpc-other') return fail('The reply is JSON-RPC but does not carry the id of the request.', ex);
    return fail(`HTTP ${ex.status} without a JSON-RPC body.`, ex);
  },
};
