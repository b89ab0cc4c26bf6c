import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coalesceKey, normalizeDomain } from '../../src/net/domain.ts';

const accepted: Array<[string, string]> = [
  ['example.com', 'example.com'],
  ['Example.COM', 'example.com'],
  ['https://example.com', 'example.com'],
  ['HTTP://WWW.example.com/pricing?plan=pro#faq', 'example.com'],
  ['www.example.com:8443', 'example.com'],
  ['example.com.', 'example.com'],
  ['example.com...', 'example.com'],
  ['  example.com  ', 'example.com'],
  ['user:secret@example.com/x', 'example.com'],
  ['docs.example.co.uk', 'docs.example.co.uk'],
  ['www.example.co.uk', 'example.co.uk'],
  ['www.com', 'www.com'],
  ['bücher.de', 'xn--bcher-kva.de'],
  ['münchen.example.', 'xn--mnchen-3ya.example'],
  ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ['ftp://files.example.org/pub', 'files.example.org'],
];
for (const [input, domain] of accepted) {
  test(`normalizes ${JSON.stringify(input)} to ${domain}`, () => {
    assert.deepEqual(normalizeDomain(input), { ok: true, domain });
  });
}

const refused: Array<[string, string]> = [
  ['', 'empty'],
  ['   ', 'empty'],
  ['1.2.3.4', 'ip-literal'],
  ['http://1.2.3.4:8080/', 'ip-literal'],
  ['2130706433', 'ip-literal'],
  ['0x7f000001', 'ip-literal'],
  ['0177.0.0.1', 'ip-literal'],
  ['127.1', 'ip-literal'],
  ['[::1]', 'ip-literal'],
  ['http://[::ffff:127.0.0.1]/', 'ip-literal'],
  ['[fe80::1]', 'ip-literal'],
  ['localhost', 'invalid-name'],
  ['intranet', 'invalid-name'],
  ['-leading.example', 'invalid-name'],
  ['under_score.example', 'invalid-name'],
  [`${'a'.repeat(64)}.example`, 'invalid-name'],
  ['exa mple.com', 'unparseable'],
  ['a.b.123', 'unparseable'],
];
for (const [input, reason] of refused) {
  test(`refuses ${JSON.stringify(input.slice(0, 40))} as ${reason}`, () => {
    const r = normalizeDomain(input);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.reason, reason);
      assert.ok(r.message.length > 10);
    }
  });
}

test('the coalescing key separates pinned profiles from auto-detection', () => {
  assert.equal(coalesceKey('example.com'), 'site:example.com:auto');
  assert.equal(coalesceKey('example.com', 'docs'), 'site:example.com:docs');
});
