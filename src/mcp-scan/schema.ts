/**
 * Tool schema quality (spec 2025-11-25 server/tools#tool): an object schema
 * with `type: "object"` at the root that a validator can compile. 2020-12 is
 * the default dialect; an explicit `$schema` (SDK 1.x emits draft-07) is honoured.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; under type stripping its default export is the plugin itself or wraps it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv | Ajv2020) => void;

// strict:false: servers add vendor keywords (x-mcp-header, examples); only real errors count.
const OPTS = { strict: false, allErrors: false, logger: false, validateSchema: true } as const;
const ajv2020 = new Ajv2020(OPTS);
const ajv07 = new Ajv(OPTS);
addFormats(ajv2020);
addFormats(ajv07);

/** Why a tool's schema is unusable, or null when it is fine. */
export function schemaIssue(schema: unknown, label: 'inputSchema' | 'outputSchema'): string | null {
  if (schema === undefined || schema === null) return `${label} is missing`;
  if (typeof schema !== 'object' || Array.isArray(schema)) return `${label} is not an object`;
  const s = schema as Record<string, unknown>;
  if (s.type !== 'object') return `${label} root type is ${JSON.stringify(s.type ?? null)}, not "object"`;
  const dialect = typeof s.$schema === 'string' ? s.$schema : '';
  const ajv = /draft-0[4-7]/.test(dialect) ? ajv07 : ajv2020;
  try {
    // A fresh copy, without $id, so equal schemas of different tools never collide in Ajv's cache.
    const { $id: _ignored, ...copy } = s;
    ajv.compile(copy);
    return null;
  } catch (err) {
    return `${label} does not compile: ${(err as Error).message.slice(0, 200)}`;
  }
}
