import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { CLIENT_FROM_GENERATED, CLIENT_HAND_WRITTEN, renderClientPackage, renderFiles } from '../../codegen/render.ts';
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

test('the typed client package sources (packages/client) match the contract; its types are generated/api-types.ts itself, never a second copy', async () => {
  const files = await renderClientPackage(yaml);
  assert.deepEqual(Object.keys(files).sort(), ['index.d.ts', 'index.js']);
  for (const [name, text] of Object.entries(files)) {
    assert.match(text, /DO NOT EDIT/, name);
    assert.equal(fs.readFileSync(new URL(`../../packages/client/${name}`, import.meta.url), 'utf8'), text, `packages/client/${name} is stale: run npm run codegen`);
  }
  // Everything in packages/client is generated or hand-written by name: no copy of the types.
  const present = fs.readdirSync(new URL('../../packages/client/', import.meta.url)).sort();
  assert.deepEqual(present, [...Object.keys(files), ...CLIENT_HAND_WRITTEN].sort());
  // The package's types are built from generated/ (scripts/pack.ts copies them in), and its index re-exports them.
  assert.deepEqual(CLIENT_FROM_GENERATED, { 'api-types.d.ts': 'api-types.ts' });
  const pkg = JSON.parse(fs.readFileSync(new URL('../../packages/client/package.json', import.meta.url), 'utf8')) as { files: string[] };
  const fromGenerated: Readonly<Record<string, string>> = CLIENT_FROM_GENERATED;
  for (const f of pkg.files) assert.ok(present.includes(f) || fromGenerated[f], `${f} is in the package`);
  assert.match(files['index.d.ts']!, /from '\.\/api-types\.js'/);
  const generated = await renderFiles(yaml);
  assert.doesNotMatch(generated['api-types.ts']!, /^export (const|function|class|enum|let|var) /m, 'type declarations only: valid as a .d.ts');
  // A type change reaches the one copy.
  const health = '        ok: { type: boolean }\n        service: { type: string }';
  assert.ok(yaml.includes(health), 'the Health lines this test edits');
  const changed = await renderFiles(yaml.replace(health, '        ok: { type: boolean }\n        service: { type: integer }'));
  const body = (t: string | undefined) => (t ?? '').split('\n').slice(1).join('\n');
  assert.notEqual(body(changed['api-types.ts']), body(generated['api-types.ts']));
});

test('the MCP scanner\'s report types are the contract\'s generated ones, not a hand mirror (one home for the contract\'s types)', () => {
  const src = fs.readFileSync(new URL('../../src/mcp-scan/types.ts', import.meta.url), 'utf8');
  assert.match(src, /import type \{ components \} from '\.\.\/\.\.\/generated\/api-types\.ts';/);
  for (const [name, schema] of [['McpServerReport', 'McpServerReport'], ['CheckResult', 'McpCheck'], ['McpToolItem', 'McpToolItem'], ['ConformanceScenario', 'ConformanceScenario'], ['ConformanceReport', 'McpConformance']]) {
    assert.match(src, new RegExp(`export type ${name} = Schemas\\['${schema}'\\];`), `${name} is the generated ${schema}`);
  }
  assert.match(src, /export type McpScanReport = Omit<McpServerReport, 'scanId' \| 'archived' \| 'reportUrl'>;/);
  assert.doesNotMatch(src, /interface (McpScanReport|McpServerReport|CheckResult|McpToolItem|ConformanceScenario|ConformanceReport)\b/, 'no hand-written copy of a contract schema');
});
