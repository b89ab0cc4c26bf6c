// Checks a real HTTP response against openapi.yaml and records which (operation, status)
// pair it exercised. Use it on every API test response:
//
//   await request(app).get('/health').expect(200).expect(conforms);
//
// A response whose status, content type, required headers or body the contract does not
// declare fails the test. test/contract/coverage.test.ts later reads the recorded pairs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openapiDocument } from '../../generated/openapi.ts';
import { operations, type OperationRow } from '../../generated/operations.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;
const ID = 'https://agent-readiness.invalid/openapi';
const doc = openapiDocument as {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec | { $ref: string }> }>>;
  components: { responses: Record<string, ResponseSpec>; schemas: Record<string, unknown> };
};

interface ResponseSpec {
  description: string;
  headers?: Record<string, { required?: boolean; schema?: unknown }>;
  content?: Record<string, { schema?: unknown }>;
}

export const hitsDir = path.resolve(import.meta.dirname, '../../.tmp/contract-hits');

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: ID, components: { schemas: doc.components.schemas } });
const compiled = new Map<string, ValidateFunction>();

function schemaValidator(key: string, schema: unknown): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    // Point the document's internal references at the registered copy.
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${ID}#/components/`);
    v = ajv.compile(JSON.parse(text));
    compiled.set(key, v);
  }
  return v;
}

const matchers = operations.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export function findOperation(method: string, urlPath: string): OperationRow | undefined {
  return matchers.find((m) => m.op.method === method.toLowerCase() && m.re.test(urlPath))?.op;
}

interface ResLike {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: string;
  body?: unknown;
  req?: { method: string; path: string };
}

/** Asserts the response matches the contract and records the (operationId, status) pair. */
export function conforms(res: ResLike): void {
  assert.ok(res.req, 'conforms() needs a supertest response');
  const urlPath = res.req.path.split('?')[0]!;
  const op = findOperation(res.req.method, urlPath);
  assert.ok(op, `${res.req.method} ${urlPath} is not an operation of openapi.yaml`);
  const status = String(res.status);
  let spec = doc.paths[op.path]![op.method]!.responses[status];
  assert.ok(spec, `${op.operationId} returned ${status}, which openapi.yaml does not declare (declared: ${op.statuses.join(', ')})`);
  if ('$ref' in spec) spec = doc.components.responses[spec.$ref.split('/').pop()!]!;
  const response = spec as ResponseSpec;

  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (header.required) assert.ok(value !== undefined, `${op.operationId} ${status} must send header ${name}`);
    if (value !== undefined && header.schema) {
      const v = schemaValidator(`${op.operationId}:${status}:header:${name}`, header.schema);
      assert.ok(v(value), `${op.operationId} ${status} header ${name}=${value}: ${ajv.errorsText(v.errors)}`);
    }
  }

  const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!response.content) {
    assert.equal(res.text ?? '', '', `${op.operationId} ${status} must have no body`);
  } else {
    const media = response.content[contentType];
    assert.ok(media, `${op.operationId} ${status} sent ${contentType || 'no content type'}; declared: ${Object.keys(response.content).join(', ')}`);
    if (media.schema) {
      const v = schemaValidator(`${op.operationId}:${status}:${contentType}`, media.schema);
      const value = contentType === 'application/json' || contentType.endsWith('+json') ? JSON.parse(res.text ?? 'null') : (res.text ?? '');
      assert.ok(v(value), `${op.operationId} ${status} body breaks openapi.yaml: ${ajv.errorsText(v.errors)}`);
    }
  }
  record(op.operationId, status);
}

function record(operationId: string, status: string): void {
  fs.mkdirSync(hitsDir, { recursive: true });
  fs.appendFileSync(path.join(hitsDir, `${process.pid}.jsonl`), `${JSON.stringify({ operationId, status })}\n`);
}
