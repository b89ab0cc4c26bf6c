// Runs after the whole suite (npm test): every (operation, status) pair of openapi.yaml
// must have been exercised by some test through conforms(), or be in the pending list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { operations } from '../../generated/operations.ts';
import { hitsDir } from '../helpers/contract.ts';
import { pending } from './pending.ts';

const hits = new Set<string>();
for (const file of fs.existsSync(hitsDir) ? fs.readdirSync(hitsDir) : []) {
  for (const line of fs.readFileSync(path.join(hitsDir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const { operationId, status } = JSON.parse(line) as { operationId: string; status: string };
    hits.add(`${operationId} ${status}`);
  }
}
const pendingSet = new Set(pending.map(([op, status]) => `${op} ${status}`));
const declared = operations.flatMap((op) => op.statuses.map((s) => `${op.operationId} ${s}`));

test('the suite recorded contract-checked responses', () => {
  assert.ok(hits.size > 0, `no hits under ${hitsDir}: run the whole suite with npm test`);
});

test('every declared (operation, status) pair is exercised or pending', () => {
  const missing = declared.filter((pair) => !hits.has(pair) && !pendingSet.has(pair));
  assert.deepEqual(missing, [], 'pairs no test exercises; add tests (or, for an unlanded issue, the pending list)');
});

test('the pending list only holds pairs that are still unexercised and declared', () => {
  const stale = [...pendingSet].filter((pair) => hits.has(pair) || !declared.includes(pair));
  assert.deepEqual(stale, [], 'exercised or undeclared pairs must leave test/contract/pending.ts');
});
