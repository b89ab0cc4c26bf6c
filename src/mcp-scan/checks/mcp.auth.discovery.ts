import type { CheckDef } from '../types.ts';
import { validPrm } from '../auth.ts';
import { fail, gate, inconclusive, pass, redact, SPEC } from './util.ts';

/** A server demanding credentials publishes RFC 9728 Protected Resource Metadata naming its authorization server. */
export const check: CheckDef = {
  id: 'mcp.auth.discovery',
  title: 'Credential requirements are discoverable (RFC 9728)',
  level: 'must',
  spec: `${SPEC}/basic/authorization#protected-resource-metadata-discovery-requirements`,
  evaluate(ev) {
    const a = ev.auth;
    if (!a) return inconclusive('not_applicable', 'The server did not ask for credentials.');
    const last = a.prmProbes.at(-1) ?? null;
    if (a.prm && validPrm(a.prm)) {
      const resource = String(a.prm.resource);
      const endpoint = ev.endpoint ?? '';
      const matches = [endpoint, endpoint.replace(/\/$/, ''), new URL(endpoint).origin, `${new URL(endpoint).origin}/`].includes(resource);
      if (!matches) return fail(`PRM at ${redact(a.prmUrl)} names resource ${resource}, not this endpoint.`, last);
      const via = a.resourceMetadataUrl && a.prmUrl === a.resourceMetadataUrl ? 'the WWW-Authenticate resource_metadata URL' : 'a well-known URL';
      return pass(`PRM found via ${via}, naming ${(a.prm.authorization_servers as unknown[]).length} authorization server(s).`, last);
    }
    if (a.prm) return fail(`PRM at ${redact(a.prmUrl)} lacks resource or authorization_servers.`, last);
    const unsure = a.prmProbes.find((p) => p.verdict !== 'http' || (p.status ?? 0) >= 500);
    if (unsure) return gate(unsure, 'PRM') ?? inconclusive('ambiguous', `PRM lookup gave HTTP ${unsure.status}.`, unsure);
    return fail('401 without Protected Resource Metadata at the challenge URL or the well-known paths.', last);
  },
};
