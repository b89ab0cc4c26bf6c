import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { renderClientPackage, renderFiles } from '../../codegen/render.ts';
import { operations } from '../../generated/operations.ts';
import { handlers } from '../../src/handlers/index.ts';

const yaml = fs.readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');

test('codegen output is deterministic and matches the committed generated/', async () => {
  const a = await renderFiles(yaml);
  const b = await renderFiles(yaml);
  assert.deepEqual(a, b);
  for (const [name, text] of Object.entries(a)) {
    assert.equal(fs.readFileSync(new URL(`../../generated/${name}`, import.meta.url), 'utf8'), text, `generated/${name} is stale: run npm run codegen`);
  }
});

test('every generated file carries the do-not-edit banner', async () => {
  for (const [name, text] of Object.entries(await renderFiles(yaml))) assert.match(text, /DO NOT EDIT/, name);
});

test('a change to the contract changes the generated files', async () => {
  const changed = await renderFiles(yaml.replace('name: { type: string, minLength: 2, maxLength: 120 }', 'name: { type: string, minLength: 3, maxLength: 120 }'));
  const current = await renderFiles(yaml);
  assert.notEqual(changed['validators.js'], current['validators.js']);
});

test('operationIds are camelCase and the handler table fills every one', () => {
  for (const op of operations) {
    assert.match(op.operationId, /^[a-z][a-zA-Z0-9]+$/);
    assert.equal(typeof handlers[op.operationId], 'function', op.operationId);
  }
  assert.equal(Object.keys(handlers).length, operations.length);
});

test('the typed client package sources (packages/client) match the contract and follow its changes', async () => {
  const files = await renderClientPackage(yaml);
  assert.deepEqual(Object.keys(files).sort(), ['api-types.d.ts', 'index.d.ts', 'index.js']);
  for (const [name, text] of Object.entries(files)) {
    assert.match(text, /DO NOT EDIT/, name);
    assert.equal(fs.readFileSync(new URL(`../../packages/client/${name}`, import.meta.url), 'utf8'), text, `packages/client/${name} is stale: run npm run codegen`);
  }
  // A type change, not just the banner's hash: compare without the first line.
  const body = (t: string | undefined) => (t ?? '').split('\n').slice(1).join('\n');
  const health = '        ok: { type: boolean }\n        service: { type: string }';
  assert.ok(yaml.includes(health), 'the Health lines this test edits');
  const changed = await renderClientPackage(yaml.replace(health, '        ok: { type: boolean }\n        service: { type: integer }'));
  assert.notEqual(body(changed['api-types.d.ts']), body(files['api-types.d.ts']));
});
