// The SSRF guard: table-driven over names and addresses.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkHostName, checkResolved, isGlobalAddress, isIpLiteral } from '../../src/net/guard.ts';

describe('guard: IP literals in every encoding are refused', () => {
  const literals = ['127.0.0.1', '2130706433', '0x7f000001', '0x7f.1', '0177.0.0.1', '127.1', '017700000001', '[::1]', '::1', '[::ffff:127.0.0.1]', '::ffff:7f00:1',
    '[::ffff:7f00:1]', '8.8.8.8', '1.1.1.1.', '0', '[fe80::1]', '[2001:db8::1]', 'a.0x10'];
  for (const host of literals) {
    test(`guard refuses the IP literal ${host}`, () => {
      assert.equal(isIpLiteral(host), true);
      assert.equal(checkHostName(host).ok, false);
    });
  }
});

describe('guard: reserved and internal names are refused', () => {
  const names = ['localhost', 'LOCALHOST.', 'foo.localhost', 'printer.local', 'db.internal', 'x.test', 'x.invalid', 'example', 'www.example.com', 'example.org',
    'router.home.arpa', 'intranet', 'host.corp', 'a..b', '-bad.com', 'under_score.com', 'xyz.onion'];
  for (const host of names) test(`guard refuses the name ${JSON.stringify(host)}`, () => assert.equal(checkHostName(host).ok, false));
});

describe('guard: public names pass the name check', () => {
  for (const host of ['world-fixtures.com', 'a.world-fixtures.com', 'xn--bcher-kva.de', 'docs.example-shop.co.uk', 'a1.b2.io']) {
    test(`guard accepts the name ${host}`, () => assert.deepEqual(checkHostName(host), { ok: true }));
  }
});

describe('guard: only globally routable unicast answers pass', () => {
  const table: Array<[string, boolean]> = [
    ['11.22.33.10', true], ['8.8.8.8', true], ['2a00:1450:4001:80b::200e', true],
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.16.0.1', false], ['192.168.1.1', false], ['169.254.169.254', false], ['100.64.0.1', false],
    ['0.0.0.0', false], ['255.255.255.255', false], ['224.0.0.1', false], ['192.0.2.1', false], ['198.51.100.7', false], ['203.0.113.9', false],
    ['::1', false], ['::', false], ['fe80::1', false], ['fc00::1', false], ['::ffff:127.0.0.1', false], ['::ffff:8.8.8.8', true],
    ['2002:7f00:1::', false], ['2001::1', false], ['64:ff9b::7f00:1', false], ['not-an-ip', false],
  ];
  for (const [addr, ok] of table) test(`guard classifies ${addr} as ${ok ? 'global' : 'not global'}`, () => assert.equal(isGlobalAddress(addr), ok));

  test('guard refuses a public name when any one answer is internal (no mixing tricks)', () => {
    assert.equal(checkResolved('a.world-fixtures.com', ['11.22.33.10', '10.0.0.1']).ok, false);
    assert.equal(checkResolved('a.world-fixtures.com', ['11.22.33.10']).ok, true);
    assert.equal(checkResolved('a.world-fixtures.com', []).ok, false);
  });
});
