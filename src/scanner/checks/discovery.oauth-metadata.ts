// Standard: RFC 9728 (OAuth protected resource metadata); RFC 8414 (authorization server metadata).
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { isOpenApi, mcpManifest } from '../features.ts';
import { fail, inconclusive, pass, skipped, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.oauth-metadata', name: 'OAuth metadata is discoverable for the API', category: 'discovery', weight: 2, profiles: ['dev-platform'], since: 'rubric-v1.0',
  standard: 'RFC 9728; RFC 8414',
  why: 'Agents acting for a user need to discover how to obtain a token without reading documentation.',
  fix: 'Publish /.well-known/oauth-protected-resource (RFC 9728) pointing at your authorization server metadata (RFC 8414).',
  evaluate(ev) {
    const hasApi = fileState(ev.files['/.well-known/api-catalog']) === 'present' || mcpManifest(ev) !== null
      || ['/openapi.json', '/.well-known/openapi.json'].some((p) => isOpenApi(parseJson(ev.files[p])));
    if (!hasApi) return skipped('no API or MCP endpoint was discovered');
    const pr = parseJson(ev.files['/.well-known/oauth-protected-resource']) as { resource?: unknown } | undefined;
    const as = parseJson(ev.files['/.well-known/oauth-authorization-server']) as { issuer?: unknown } | undefined;
    if (typeof pr?.resource === 'string') return pass('protected-resource metadata published');
    if (typeof as?.issuer === 'string') return pass('authorization-server metadata published');
    const states = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'].map((p) => fileState(ev.files[p]));
    if (states.includes('unknown')) return inconclusive('OAuth metadata paths could not be fetched');
    return fail(`no OAuth protected-resource or authorization-server metadata${['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'].map((p) => insteadNote(ev.files[p])).find(Boolean) ?? ''}`);
  },
};
