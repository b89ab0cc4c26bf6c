// Paths and queries that broke the contract before (found by fuzz.test.ts), pinned as
// plain examples so they stay fixed whatever the random generator picks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateError } from '../../generated/validators.js';
import { conforms } from '../helpers/contract.ts';
import { hostileApp, type HostileApp } from './lib/hostile-app.ts';
import { rawRequest } from './lib/raw-http.ts';

describe('hostile paths: undecodable percent-encoding and unknown query parameters', () => {
  let t: HostileApp;
  before(async () => {
    t = await hostileApp();
  });
  after(() => t.close());

  for (const raw of ['%zz', '%C0%AE', '%E0%A4%A', 'a%ZZb']) {
    test(`GET /badge/${raw}.svg answers the declared 400 Error, not an undeclared status`, async () => {
      const res = await rawRequest(t.url, { method: 'GET', path: `/badge/${raw}.svg` });
      conforms(res);
      assert.equal(res.status, 400);
      assert.ok(validateError(JSON.parse(res.text)));
    });

    test(`POST /r/${raw}/cli-vantage answers 400 (was a 500 from the router's param decoder)`, async () => {
      const res = await rawRequest(t.url, {
        method: 'POST',
        path: `/r/${raw}/cli-vantage`,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ domain: 'x.com', uploadToken: 't', observations: [{ key: 'control:browser', status: 200 }] }),
      });
      conforms(res);
      assert.equal(res.status, 400);
      assert.ok(validateError(JSON.parse(res.text)));
    });

    test(`GET /r/${raw} answers 400 with an Error body`, async () => {
      const res = await rawRequest(t.url, { method: 'GET', path: `/r/${raw}`, headers: { Accept: 'application/json' } });
      conforms(res);
      assert.equal(res.status, 400);
    });
  }

  test('GET /mcp with unknown query parameters still answers its declared 406, not an undeclared 400', async () => {
    const res = await rawRequest(t.url, { method: 'GET', path: '/mcp?x=1&%00=%00', headers: { Accept: 'application/json' } });
    conforms(res);
    assert.equal(res.status, 406);
  });
});

describe('hostile JSON-RPC ids on POST /mcp (found by fuzz.test.ts: ids beyond 2^53 hung with no answer)', () => {
  let t: HostileApp;
  before(async () => {
    t = await hostileApp();
  });
  after(() => t.close());

  for (const id of ['1e308', '-2.3e273', '9007199254740993', '1e21', '1.5']) {
    test(`POST /mcp with id ${id} answers a JSON-RPC 400 at once instead of hanging`, async () => {
      const res = await rawRequest(t.url, {
        method: 'POST',
        path: '/mcp',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
        timeoutMs: 5000,
      });
      conforms(res);
      assert.equal(res.status, 400);
      assert.equal((JSON.parse(res.text) as { error: { code: number } }).error.code, -32600);
    });
  }

  test('POST /mcp with the largest safe integer id is still answered with that id', async () => {
    const res = await rawRequest(t.url, {
      method: 'POST',
      path: '/mcp',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: `{"jsonrpc":"2.0","id":${Number.MAX_SAFE_INTEGER},"method":"ping"}`,
    });
    conforms(res);
    assert.equal(res.status, 200);
    assert.equal((JSON.parse(res.text) as { id: number }).id, Number.MAX_SAFE_INTEGER);
  });
});
