import type { CheckDef } from '../types.ts';
import { fail, inconclusive, isObject, needsOpenEndpoint, pass, rpcError, SPEC } from './util.ts';

/** The InitializeResult has protocolVersion, capabilities and serverInfo{name,version}. */
export const check: CheckDef = {
  id: 'mcp.lifecycle.initialize',
  title: 'initialize returns a complete InitializeResult',
  level: 'must',
  spec: `${SPEC}/basic/lifecycle#initialization`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'initialize');
    if (g) return g;
    const ex = ev.init!;
    const r = ex.rpc?.result;
    if (!r) {
      const err = rpcError(ex.rpc);
      if (err && ev.discover?.verdict === 'rpc') return inconclusive('not_applicable', `initialize refused (${err.code}); the server speaks the 2026-07-28 era, which has no handshake.`, ex);
      return fail(`initialize returned ${err ? `error ${err.code} ${err.message}` : 'no result'}.`, ex);
    }
    const missing: string[] = [];
    if (typeof r.protocolVersion !== 'string') missing.push('protocolVersion');
    if (!isObject(r.capabilities)) missing.push('capabilities');
    const info = r.serverInfo;
    if (!isObject(info) || typeof info.name !== 'string') missing.push('serverInfo.name');
    if (!isObject(info) || typeof info.version !== 'string') missing.push('serverInfo.version');
    if (missing.length > 0) return fail(`InitializeResult lacks or mistypes: ${missing.join(', ')}.`, ex);
    return pass(`protocolVersion ${r.protocolVersion}, serverInfo ${(info as { name: string }).name} ${(info as { version: string }).version}.`, ex);
  },
};
