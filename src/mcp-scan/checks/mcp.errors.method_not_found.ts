import type { CheckDef } from '../types.ts';
import { fail, gate, JSONRPC_ERRORS, needsOpenEndpoint, pass, rpcError } from './util.ts';

/** An unknown method gets -32601 with the request id (2026-07-28 adds HTTP 404). */
export const check: CheckDef = {
  id: 'mcp.errors.method_not_found',
  title: 'Unknown methods get -32601',
  level: 'must',
  spec: JSONRPC_ERRORS,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Unknown method') ?? gate(ev.methodNotFound, 'Unknown method');
    if (g) return g;
    const ex = ev.methodNotFound!;
    const err = rpcError(ex.rpc);
    if (ex.verdict === 'rpc' && err?.code === -32601) return pass(`JSON-RPC error -32601 with the matching id${ex.status === 404 ? ' (HTTP 404, as 2026-07-28 asks)' : ''}.`, ex);
    if (ex.status === 404 && !ex.rpc) return pass('HTTP 404 (the 2026-07-28 answer for unknown methods), without a JSON-RPC body.', ex);
    if (ex.verdict === 'rpc' && ex.rpc?.result) return fail('A made-up method returned a success result.', ex);
    if (err) return fail(`Error ${err.code} instead of -32601${ex.verdict === 'rpc-other' ? ', and without the request id' : ''}.`, ex);
    return fail(`HTTP ${ex.status} without a JSON-RPC error.`, ex);
  },
};
