import type { CheckDef } from '../types.ts';
import { fail, gate, needsOpenEndpoint, pass, rpcError, SPEC } from './util.ts';

/**
 * tools/call without a tool name is an error with the request id. -32602 is
 * right; SDK 1.x answers -32603, so only the shape is scored (mcp.md §4).
 */
export const check: CheckDef = {
  id: 'mcp.errors.invalid_params',
  title: 'Invalid tools/call params get a JSON-RPC error',
  level: 'must',
  spec: `${SPEC}/server/tools#error-handling`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Invalid params') ?? gate(ev.invalidParams, 'Invalid params');
    if (g) return g;
    const ex = ev.invalidParams!;
    const err = rpcError(ex.rpc);
    if (ex.verdict === 'rpc' && err) return pass(`JSON-RPC error ${err.code}${err.code === -32602 ? '' : ' (-32602 is the code JSON-RPC defines for this)'} with the matching id.`, ex);
    if (ex.verdict === 'rpc' && ex.rpc?.result) return fail('tools/call without a name returned a result instead of an error.', ex);
    if (err) return fail(`Error ${err.code} without the request id.`, ex);
    return fail(`HTTP ${ex.status} without a JSON-RPC error.`, ex);
  },
};
