import type { CheckDef } from '../types.ts';
import { gate, inconclusive, needsOpenEndpoint, pass } from './util.ts';

/** The 2026-07-28 era: server/discover with supportedVersions. Informational: legacy servers stay valid. */
export const check: CheckDef = {
  id: 'mcp.protocol.modern',
  title: 'Answers 2026-07-28 clients (server/discover)',
  level: 'may',
  spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning',
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'server/discover') ?? gate(ev.discover, 'server/discover');
    if (g) return g;
    const ex = ev.discover!;
    const versions = ex.rpc?.result?.supportedVersions;
    if (ex.verdict === 'rpc' && Array.isArray(versions)) {
      return pass(`DiscoverResult lists ${versions.join(', ')} (era ${ev.negotiatedVersion ? 'dual' : 'modern'}).`, ex);
    }
    return inconclusive('not_applicable', 'A legacy-era server: server/discover is not answered. Legacy servers remain valid.', ex);
  },
};
