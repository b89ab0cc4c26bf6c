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
