import type { CheckDef } from '../types.ts';
import { fail, inconclusive, needsOpenEndpoint, pass, KNOWN_VERSIONS } from './util.ts';

/** The negotiated (or, for modern servers, advertised) version is a published revision. */
export const check: CheckDef = {
  id: 'mcp.protocol.version_known',
  title: 'The protocol version is a published revision',
  level: 'must',
  spec: 'https://modelcontextprotocol.io/specification/versioning',
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Protocol version');
    if (g) return g;
    const versions = ev.negotiatedVersion ? [ev.negotiatedVersion] : supported(ev);
    if (versions.length === 0) return inconclusive('not_applicable', 'No protocol version was negotiated or advertised.', ev.init);
    const unknown = versions.filter((v) => !KNOWN_VERSIONS.includes(v));
    if (unknown.length > 0) return fail(`Unpublished version string(s): ${unknown.join(', ')}.`, ev.init);
    return pass(`Version ${versions.join(', ')}.`, ev.init);
  },
};

function supported(ev: Parameters<CheckDef['evaluate']>[0]): string[] {
  const s = ev.discover?.rpc?.result?.supportedVersions;
  return Array.isArray(s) ? s.filter((v): v is string => typeof v === 'string') : [];
}
