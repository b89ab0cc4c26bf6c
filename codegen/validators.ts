// Compiles every component schema with Ajv 2020 into standalone ES module code, so the
// CLI and the tests validate without compiling schemas at start-up.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { OpenApiDoc } from './render.ts';

// Both packages are CommonJS modules whose function sits on `default`.
type AddFormats = (ajv: Ajv2020) => unknown;
type Standalone = (ajv: Ajv2020, refsOrFunc: Record<string, string>) => string;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as AddFormats;
const standalone = ((standaloneModule as unknown as { default?: Standalone }).default ?? standaloneModule) as Standalone;

const ID = 'https://agent-readiness.invalid/openapi';

export function renderValidators(doc: OpenApiDoc): { js: string; dts: string } {
  const ajv = new Ajv2020({ code: { source: true, esm: true, lines: false }, allErrors: true, strict: false, discriminator: true });
  addFormats(ajv);
  ajv.addSchema({ $id: ID, components: { schemas: doc.components.schemas } });
  const names = Object.keys(doc.components.schemas).sort();
  const exportsMap = Object.fromEntries(names.map((n) => [`validate${n}`, `${ID}#/components/schemas/${n}`]));
  const code = standalone(ajv, exportsMap);

  // Ajv writes CommonJS require() calls even in ESM mode; turn them into imports.
  const imports = new Map<string, string>();
  const body = code
    .replace(/^"use strict";/, '')
    .replace(/require\("([^"]+)"\)/g, (_all: string, mod: string) => {
      const spec = mod.endsWith('.js') ? mod : `${mod}.js`;
      if (!imports.has(spec)) imports.set(spec, `__dep${imports.size}`);
      return imports.get(spec)!;
    });
  const importLines = [...imports].map(([spec, id]) => `import ${id} from ${JSON.stringify(spec)};`).join('\n');

  const dts = [
    `import type { ValidateFunction } from 'ajv';`,
    `import type { components } from './api-types.ts';`,
    `type Schemas = components['schemas'];`,
    ...names.map((n) => `export declare const validate${n}: ValidateFunction<Schemas[${JSON.stringify(n)}]>;`),
    '',
  ].join('\n');
  return { js: `/* eslint-disable */\n${importLines}\n${body}\n`, dts };
}
