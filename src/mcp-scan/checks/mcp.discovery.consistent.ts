import type { CheckDef } from '../types.ts';
import { fail, inconclusive, isObject, pass, redact, withoutQuery } from './util.ts';

/** What the manifest declares (endpoint, name, version, auth posture) agrees with what the server does. */
export const check: CheckDef = {
  id: 'mcp.discovery.consistent',
  title: 'The manifest agrees with the running server',
  level: 'should',
  spec: 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127',
  evaluate(ev) {
    const m = ev.manifest;
    if (!m) return inconclusive('not_applicable', 'No manifest to compare.');
    if (!ev.endpoint || !ev.init) return inconclusive('unreachable', 'The runtime endpoint could not be examined.');
    const problems: string[] = [];
    if (m.endpoint && withoutQuery(m.endpoint) !== withoutQuery(ev.endpoint)) problems.push(`manifest endpoint ${redact(m.endpoint)}, but the server answered at ${redact(ev.endpoint)}`);
    if (m.authRequired === false && (ev.init.verdict === 'policy' || ev.auth)) problems.push('manifest says no authentication, but the endpoint answered 401');
    if (m.authRequired === true && ev.init.verdict === 'rpc' && !ev.auth) problems.push('manifest says authentication is required, but the endpoint answered without credentials');
    const info = ev.init.rpc?.result?.serverInfo;
    if (isObject(info)) {
      if (m.name && typeof info.name === 'string' && m.name !== info.name && !m.name.endsWith(`/${info.name}`)) problems.push(`manifest name ${m.name}, server says ${info.name}`);
      if (m.version && typeof info.version === 'string' && m.version !== info.version) problems.push(`manifest version ${m.version}, server says ${info.version}`);
    }
    const negotiated = ev.negotiatedVersion;
    if (negotiated && m.versions.length > 0 && !m.versions.includes(negotiated)) problems.push(`manifest lists ${m.versions.join(', ')}, server negotiated ${negotiated}`);
    if (problems.length > 0) return fail(`Contradictions: ${problems.join('; ')}.`);
    return pass('No contradiction between the manifest and runtime behaviour.');
  },
};
