/**
 * Check branches the world's servers do not reach, on synthetic evidence:
 * a good baseline with one change per case.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_CHECKS } from '../../src/mcp-scan/checks/index.ts';
import type { Evidence, Exchange, Outcome } from '../../src/mcp-scan/types.ts';

const EP = 'https://mcp.acme-mcp.io/mcp';

function ex(over: Partial<Exchange> = {}): Exchange {
  return { label: 'POST /mcp x', verdict: 'rpc', status: 200, headers: {}, contentType: 'application/json', text: '{}', isSse: false, rpc: { id: 1, result: {} }, errorCode: null, ...over };
}

function baseline(over: Partial<Evidence> = {}): Evidence {
  return {
    input: 'mcp.acme-mcp.io', endpoint: EP, resolvedVia: 'convention', attempts: [], manifestProbes: [], manifest: null,
    init: ex({ rpc: { id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } } }),
    legacySse: null, negotiatedVersion: '2025-11-25', sessionId: null, notification: ex({ status: 202, text: '', rpc: null, verdict: 'http' }),
    badVersionInit: ex({ rpc: { id: 3, result: { protocolVersion: '2025-11-25' } } }), discover: null, toolsPages: [], tools: [], cursorLoop: false,
    pagesCapped: false, versionHeader: null, methodNotFound: null, invalidParams: null, parseError: null, get: null, auth: null, requestCount: 5,
    ...over,
  };
}

const run = (id: string, ev: Evidence): Outcome => MCP_CHECKS.find((c) => c.id === id)!.evaluate(ev);

describe('checks on synthetic evidence', () => {
  const cases: Array<[string, string, Partial<Evidence>, Outcome['status'], RegExp?]> = [
    ['PRM naming another resource fails', 'mcp.auth.discovery',
      { auth: { challenge: 'Bearer', resourceMetadataUrl: null, prmUrl: 'https://mcp.acme-mcp.io/.well-known/oauth-protected-resource', prm: { resource: 'https://other.acme-mcp.io/', authorization_servers: ['https://as.acme-mcp.io'] }, prmProbes: [ex()] } },
      'fail', /not this endpoint/],
    ['PRM for the origin is accepted', 'mcp.auth.discovery',
      { auth: { challenge: 'Bearer', resourceMetadataUrl: null, prmUrl: 'u', prm: { resource: 'https://mcp.acme-mcp.io', authorization_servers: ['https://as.acme-mcp.io'] }, prmProbes: [ex()] } },
      'pass'],
    ['401 without any PRM fails', 'mcp.auth.discovery',
      { auth: { challenge: null, resourceMetadataUrl: null, prmUrl: null, prm: null, prmProbes: [ex({ verdict: 'http', status: 404, rpc: null }), ex({ verdict: 'http', status: 404, rpc: null })] } },
      'fail', /without Protected Resource Metadata/],
    ['PRM lookup that times out is inconclusive', 'mcp.auth.discovery',
      { auth: { challenge: null, resourceMetadataUrl: null, prmUrl: null, prm: null, prmProbes: [ex({ verdict: 'timeout', status: null, rpc: null })] } },
      'inconclusive'],
    ['manifest naming another server is a contradiction', 'mcp.discovery.consistent',
      { manifest: { url: 'm', format: 'sep-1649', endpoint: EP, authRequired: false, name: 'other', version: '1', versions: [] } },
      'fail', /manifest name other/],
    ['manifest registry name ending in the server name is consistent', 'mcp.discovery.consistent',
      { manifest: { url: 'm', format: 'server.json', endpoint: EP, authRequired: null, name: 'io.acme/s', version: '1', versions: ['2025-11-25'] } },
      'pass'],
    ['an unpublished negotiated version fails', 'mcp.protocol.version_known', { negotiatedVersion: '2025-13-01' }, 'fail'],
    ['offering an unknown version fails negotiation', 'mcp.lifecycle.version_negotiation', { badVersionInit: ex({ rpc: { id: 3, result: { protocolVersion: 'v2' } } }) }, 'fail'],
    ['an error naming supported versions passes negotiation', 'mcp.lifecycle.version_negotiation',
      { badVersionInit: ex({ status: 200, rpc: { id: 3, error: { code: -32602, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } } }) }, 'pass', /supported/],
    ['a 202 with a body fails', 'mcp.transport.notification', { notification: ex({ status: 202, text: '{"ok":true}', rpc: null, verdict: 'http' }) }, 'fail'],
    ['an error without our id fails invalid params', 'mcp.errors.invalid_params',
      { invalidParams: ex({ verdict: 'rpc-other', status: 400, rpc: { id: null, error: { code: -32602, message: 'x' } } }) }, 'fail', /without the request id/],
    ['a 404 without body passes method not found (2026-07-28)', 'mcp.errors.method_not_found', { methodNotFound: ex({ verdict: 'http', status: 404, rpc: null, text: '' }) }, 'pass'],
    ['a hang on malformed JSON fails', 'mcp.errors.parse_error', { parseError: ex({ verdict: 'timeout', status: null, rpc: null }) }, 'fail', /hung/],
    ['a 5xx on GET fails', 'mcp.transport.get', { get: ex({ verdict: 'http', status: 502, rpc: null, contentType: 'text/html' }) }, 'fail'],
    ['a non-string nextCursor fails', 'mcp.tools.list', { toolsPages: [ex({ rpc: { id: 10, result: { tools: [], nextCursor: 5 } } })] }, 'fail', /not a string/],
    ['no tools capability makes the listing not applicable', 'mcp.tools.list', { tools: null, toolsPages: [] }, 'inconclusive'],
    ['budget spent before the probe is inconclusive, never a fail', 'mcp.errors.method_not_found', { methodNotFound: ex({ verdict: 'skipped', status: null, rpc: null }) }, 'inconclusive'],
  ];
  for (const [name, id, over, status, detail] of cases) {
    test(`check ${id}: ${name}`, () => {
      const o = run(id, baseline(over));
      assert.equal(o.status, status, o.detail);
      if (detail) assert.match(o.detail, detail);
    });
  }
});
