// Property-based hostile input against every operation of openapi.yaml: generated and
// mutated bodies under every framing, junk queries and path values, odd Accept headers.
// For every request:
//   - no 5xx, except the 502 the contract declares for a scan that could not complete;
//   - the answer conforms to openapi.yaml (status declared, body and headers valid), and
//     every JSON error body is the spec's Error (RateLimited on 429, JSON-RPC on /mcp 400);
//   - the service keeps answering (GET /health after each operation's run).
// FUZZ_RUNS (default 300) sets the runs per operation; FUZZ_SEED replays a failure;
// `npm run fuzz` (scripts/fuzz.ts) runs many more.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { operations, type OperationRow } from '../../generated/operations.ts';
import { validateError, validateJsonRpcErrorResponse, validateRateLimited } from '../../generated/validators.js';
import { conforms } from '../helpers/contract.ts';
import { bodyFrom, framing, junkString, pathValue, queryString } from './lib/arbitraries.ts';
import { hostileApp, type HostileApp } from './lib/hostile-app.ts';
import { rawRequest, type RawResponse } from './lib/raw-http.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const lead = { name: 'Fuzz Tester', email: 'fuzz@fuzz-site.com' };

/** Operations where the contract declares 502 (the scan could not complete). */
const MAY_502 = new Set(['scanSite', 'scanMcp']);

interface Seeded {
  scanId: string;
  domain: string;
  token: string;
}

function validBodies(op: OperationRow, seeded: Seeded): unknown[] {
  switch (op.operationId) {
    case 'scanSite':
      return [
        { domain: 'fuzz-site.com', lead },
        { domain: 'https://www.Fuzz-Site.com:443/pricing?x=1#y', lead: { ...lead, phone: '+1 (555) 010-0000', role: 'CTO' }, fresh: true, profile: 'docs' },
        { domain: 'bücher-fuzz.de', lead: { ...lead, phone: null, role: null }, turnstileToken: 'tok' },
      ];
    case 'scanMcp':
      // Targets the guard refuses before any network: the property is about the envelope.
      return [{ target: 'https://mcp.fuzz.invalid/mcp', lead }, { target: 'fuzz.invalid', lead }];
    case 'attachCliVantage':
      return [
        { domain: seeded.domain, uploadToken: 'A'.repeat(43), observations: [{ key: 'control:browser', status: 200, bodyBytes: 10, timingMs: 5 }] },
        { domain: seeded.domain, uploadToken: seeded.token, observedAt: '2026-11-22T10:15:00Z', observations: [{ key: 'grid:GPTBot', status: 403 }] },
      ];
    case 'postMcp':
      return [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } },
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_checks', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_report', arguments: { scanId: seeded.scanId } } },
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'scan_site', arguments: { domain: 'fuzz-mcp.com', name: lead.name, email: lead.email } } },
        { jsonrpc: '2.0', id: 6, method: 'server/discover' },
      ];
    default:
      return [{}];
  }
}

function pathArbitrary(op: OperationRow, seeded: Seeded): fc.Arbitrary<string> {
  if (!op.path.includes('{')) return fc.constant(op.path);
  const known = op.path.includes('{scanId}') ? seeded.scanId : seeded.domain;
  const value = fc.oneof({ weight: 4, arbitrary: pathValue }, { weight: 1, arbitrary: fc.constant(known) });
  return value.map((v) => op.path.replace(/\{[^}]+\}/, v));
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  chunked: boolean;
  firstChunkOnly: boolean;
}

function requestArbitrary(op: OperationRow, seeded: Seeded): fc.Arbitrary<Sent> {
  const method = op.method.toUpperCase();
  if (op.method === 'get') {
    return fc.record({ path: pathArbitrary(op, seeded), query: queryString, frame: framing, extra: fc.option(junkString.map((s) => s.replace(/[^\x20-\x7e]/g, '')), { nil: undefined }) }).map(({ path, query, frame, extra }) => {
      const headers: Record<string, string> = {};
      if (frame.accept) headers.Accept = frame.accept;
      if (op.operationId === 'getMcp' && extra !== undefined) headers.Accept = extra.length % 2 ? 'text/event-stream' : extra;
      // An SSE stream stays open for about a minute (the MCP hint, or the form's progress
      // waiting for its scan): read its first event and hang up.
      return { method, path: path + query, headers, chunked: false, firstChunkOnly: op.operationId === 'getMcp' || op.operationId === 'getScanProgress' };
    });
  }
  return fc.record({ path: pathArbitrary(op, seeded), body: bodyFrom(validBodies(op, seeded)), frame: framing }).map(({ path, body, frame }) => {
    const headers: Record<string, string> = {};
    if (frame.contentType) headers['Content-Type'] = frame.contentType;
    if (frame.contentEncoding) headers['Content-Encoding'] = frame.contentEncoding;
    if (frame.accept) headers.Accept = frame.accept;
    return { method, path, headers, body, chunked: frame.chunked, firstChunkOnly: false };
  });
}

/** The properties every answer must have. */
function judge(op: OperationRow, res: RawResponse): void {
  const detail = `${op.operationId} -> ${res.status} ${res.text.slice(0, 300)}`;
  assert.ok(res.status < 500 || (res.status === 502 && MAY_502.has(op.operationId)), `server error: ${detail}`);
  conforms(res);
  const type = String(res.headers['content-type'] ?? '');
  if (res.status >= 400 && type.startsWith('application/json')) {
    const body: unknown = JSON.parse(res.text);
    if (op.operationId === 'postMcp' && res.status === 400) assert.ok(validateJsonRpcErrorResponse(body), `JSON-RPC error body: ${detail}`);
    else if (res.status === 429) assert.ok(validateRateLimited(body), `RateLimited body: ${detail}`);
    else assert.ok(validateError(body), `Error body: ${detail}`);
    assert.doesNotMatch(res.text, /\bat [^ ]+ \(.*:\d+:\d+\)|node:internal|\/work\/|src\/[a-z]+\/[a-z-]+\.ts/, `a stack trace or source path leaked: ${detail}`);
  }
}

for (const mode of ['development', 'production'] as const) describe(`hostile input (${mode} pipeline): property-based requests against every operation of openapi.yaml`, () => {
  // Production skips response validation and serves input-less GETs ahead of the request
  // validator (src/app.ts); both pipelines must hold. CI runs RUNS in development and a
  // third of them in production.
  const runs = mode === 'development' ? RUNS : Math.max(50, Math.ceil(RUNS / 3));
  let t: HostileApp;
  const seeded: Seeded = { scanId: '', domain: 'seeded-fuzz.com', token: '' };
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    t = await hostileApp(mode === 'production' ? { VALIDATE_RESPONSES: 'false' } : {});
    const res = await rawRequest(t.url, {
      method: 'POST',
      path: '/scan',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: seeded.domain, lead }),
    });
    conforms(res);
    assert.equal(res.status, 200, res.text);
    const body = JSON.parse(res.text) as { scanId: string; cliUploadToken: string };
    seeded.scanId = body.scanId;
    seeded.token = body.cliUploadToken;
  });

  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t.close();
  });

  for (const op of operations) {
    test(`fuzz ${op.operationId} (${op.method.toUpperCase()} ${op.path}), ${mode}: ${runs} hostile requests, no 5xx, contract-valid errors, service stays up`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op, seeded), async (sent) => {
          const res = await rawRequest(t.url, sent);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          judge(op, res);
        }),
        { numRuns: runs, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
      const health = await rawRequest(t.url, { method: 'GET', path: '/health' });
      conforms(health);
      assert.equal(health.status, 200, 'the service stopped answering /health');
      assert.deepEqual(unhandled, [], 'unhandled promise rejections during the run');
      if (process.env.FUZZ_VERBOSE) console.log(mode, op.operationId, Object.fromEntries(statuses));
    });
  }
});
