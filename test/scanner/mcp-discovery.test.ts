// The pinned Server Card schema agrees with the server-card extension's own examples (copied verbatim,
// test/fixtures/mcp-server-card/README.md): every valid example passes, every invalid one is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { serverCardProblems } from '../../src/scanner/mcp-discovery.ts';

const dir = new URL('../fixtures/mcp-server-card/', import.meta.url);
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('the extension ships valid and invalid examples', () => {
  assert.ok(examples.filter((f) => f.startsWith('valid-')).length >= 2);
  assert.ok(examples.filter((f) => f.startsWith('invalid-')).length >= 4);
});
for (const f of examples) {
  test(`pinned schema: ${f}`, () => {
    const problems = serverCardProblems(JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
    if (f.startsWith('valid-')) assert.deepEqual(problems, []);
    else assert.ok(problems.length > 0, `${f} should be refused`);
  });
}

// x402's discovery document, decoded tolerantly (src/scanner/payment.ts).
import { x402Discovery } from '../../src/scanner/payment.ts';
const X402_TABLE: Array<[string, string, string, RegExp]> = [
  ['the x402scan shape', JSON.stringify({ version: 1, resources: ['https://a.example/api/1', 'https://a.example/api/2'], ownershipProofs: ['0x1'] }), 'present', /version 1\) lists 2 paid resources \(https:\/\/a\.example\/api\/1, https:\/\/a\.example\/api\/2\) and 1 ownership proof$/],
  ['resources as objects', JSON.stringify({ resources: [{ resource: 'https://a.example/x' }, { url: 'https://a.example/y' }] }), 'present', /lists 2 paid resources/],
  ['no resources list', JSON.stringify({ version: 1 }), 'invalid', /has no resources list/],
  ['not JSON', 'hello', 'invalid', /is not JSON/],
];
for (const [name, body, state, summary] of X402_TABLE) {
  test(`x402 discovery: ${name}`, () => {
    const d = x402Discovery(body);
    assert.equal(d.state, state);
    assert.match(d.summary, summary);
  });
}
