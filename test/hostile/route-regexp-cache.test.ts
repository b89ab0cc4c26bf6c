// The memoised path-to-regexp behind the OpenAPI validator (src/http/route-regexp-cache.ts,
// a fix from the read benchmarks' profile) must compile once and match as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatorPathToRegexp } from '../../src/http/route-regexp-cache.ts';

test('the validator path-to-regexp returns one compiled object per route and options', () => {
  const compile = validatorPathToRegexp() as (p: string, o?: object) => { regexp: RegExp; keys: { name: string }[] };
  const a = compile('/r/:scanId/cli-vantage', { sensitive: false, strict: false });
  const b = compile('/r/:scanId/cli-vantage', { sensitive: false, strict: false });
  const c = compile('/r/:scanId/cli-vantage', { sensitive: true, strict: false });
  assert.equal(a, b);
  assert.notEqual(a, c);
  assert.deepEqual(a.keys.map((k) => k.name), ['scanId']);
  assert.deepEqual(a.regexp.exec('/r/abc/cli-vantage')?.slice(1), ['abc']);
  assert.equal(a.regexp.exec('/r/abc/other'), null);
  // Matching twice with the shared object gives the same answer (no global-regexp state).
  assert.deepEqual(a.regexp.exec('/r/xyz/cli-vantage')?.slice(1), ['xyz']);
});
