import type { CheckDef } from '../types.ts';
import { fail, gate, JSONRPC_ERRORS, needsOpenEndpoint, pass, rpcError } from './util.ts';

/** Malformed JSON gets a 4xx or a -32700 error; never a success, a 5xx or a hang. */
export const check: CheckDef = {
  id: 'mcp.errors.parse_error',
  title: 'Malformed JSON is refused cleanly',
  level: 'must',
  spec: JSONRPC_ERRORS,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Malformed JSON');
    if (g) return g;
    const ex = ev.parseError;
    // The server answered every earlier probe, so silence here is its own doing.
    if (ex?.verdict === 'timeout') return fail('No answer to a malformed body: the server hung.', ex);
    const gp = gate(ex, 'Malformed JSON');
    if (gp || !ex) return gp!;
    const err = rpcError(ex.rpc);
    const s = ex.status ?? 0;
    if (err?.code === -32700) return pass(`-32700 Parse error (HTTP ${s}).`, ex);
    if (s >= 400 && s < 500) return pass(`HTTP ${s}${err ? ` with JSON-RPC error ${err.code}` : ', without a JSON-RPC body'}.`, ex);
    if (s >= 500) return fail(`HTTP ${s}: the server faulted on malformed input.`, ex);
    return fail(`HTTP ${s}${ex.rpc?.result ? ' with a success result' : ''} for a malformed body.`, ex);
  },
};
