import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, needsOpenEndpoint, pass, rpcError, SPEC, KNOWN_VERSIONS } from './util.ts';

/** An unknown requested version gets one the server supports, or an error; never an echo. */
export const check: CheckDef = {
  id: 'mcp.lifecycle.version_negotiation',
  title: 'Unknown protocol versions are negotiated, not echoed',
  level: 'must',
  spec: `${SPEC}/basic/lifecycle#version-negotiation`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Version negotiation') ?? gate(ev.badVersionInit, 'Version negotiation');
    if (g) return g;
    const ex = ev.badVersionInit!;
    const v = ex.rpc?.result?.protocolVersion;
    if (ex.verdict === 'rpc' && typeof v === 'string') {
      if (v === '1999-01-01') return fail('The server echoed the unknown version 1999-01-01.', ex);
      if (!KNOWN_VERSIONS.includes(v)) return fail(`The server answered with ${v}, which no spec revision defines.`, ex);
      return pass(`Requested 1999-01-01, offered ${v}.`, ex);
    }
    const err = rpcError(ex.rpc);
    if (err) return pass(`Refused with JSON-RPC error ${err.code}${JSON.stringify(ex.rpc?.error?.data ?? '').includes('supported') ? ', naming the supported versions' : ''}.`, ex);
    if ((ex.status ?? 0) >= 400 && (ex.status ?? 0) < 500) return pass(`Refused with HTTP ${ex.status}.`, ex);
    return inconclusive('ambiguous', `Neither a result nor an error (HTTP ${ex.status}).`, ex);
  },
};
