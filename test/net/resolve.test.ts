// SCAN_RESOLVE parsing and the static-then-DNS resolver.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScanResolve, resolveHost, staticAnswer } from '../../src/net/resolve.ts';

test('SCAN_RESOLVE: exact entries win over wildcards, longest wildcard first, repeats add addresses', () => {
  const o = parseScanResolve('*.world-fixtures.com=11.22.33.10, down.world-fixtures.com=11.22.33.20,*.deep.world-fixtures.com=11.22.33.40,two.example-shop.io=1.2.3.4,two.example-shop.io=[2a00::1]');
  assert.deepEqual(staticAnswer(o, 'a.world-fixtures.com'), ['11.22.33.10']);
  assert.deepEqual(staticAnswer(o, 'DOWN.world-fixtures.com.'), ['11.22.33.20']);
  assert.deepEqual(staticAnswer(o, 'x.deep.world-fixtures.com'), ['11.22.33.40']);
  assert.deepEqual(staticAnswer(o, 'two.example-shop.io'), ['1.2.3.4', '2a00::1']);
  assert.equal(staticAnswer(o, 'world-fixtures.com'), undefined, 'a wildcard does not match the bare suffix');
});

test('SCAN_RESOLVE: a malformed entry throws instead of silently falling through to DNS', () => {
  assert.throws(() => parseScanResolve('host-without-address'));
  assert.throws(() => parseScanResolve('=1.2.3.4'));
  assert.deepEqual(parseScanResolve(undefined).exact.size, 0);
});

test('resolveHost: static answers first, DNS errors mapped to stable codes, DNS bounded by a timeout', async () => {
  const o = parseScanResolve('a.world-fixtures.com=11.22.33.10');
  assert.deepEqual(await resolveHost('a.world-fixtures.com', o, 100, async () => { throw new Error('DNS must not be asked'); }), { ok: true, addresses: ['11.22.33.10'], source: 'static' });
  const nx = await resolveHost('b.world-fixtures.com', o, 100, async () => { throw Object.assign(new Error('x'), { code: 'ENOTFOUND' }); });
  assert.equal(nx.ok ? '' : nx.errorCode, 'DNS_NXDOMAIN');
  const slow = await resolveHost('c.world-fixtures.com', o, 30, () => new Promise(() => undefined));
  assert.equal(slow.ok ? '' : slow.errorCode, 'TIMEOUT');
  assert.deepEqual(await resolveHost('d.world-fixtures.com', o, 100, async () => ['8.8.8.8']), { ok: true, addresses: ['8.8.8.8'], source: 'dns' });
});
