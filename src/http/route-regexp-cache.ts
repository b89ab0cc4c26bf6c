// express-openapi-validator 5.6 (lookupRoute in openapi.metadata.js) compiles every route of
// the contract with path-to-regexp on every request, before it finds the one that matches:
// about twenty compilations per request, the largest single cost of a cheap GET in the
// profile (bench/results.md). The routes are fixed, so memoise the compilation for the
// copy of path-to-regexp the validator loads. The compiled object is only read (.regexp
// with exec, non-global, and .keys), so sharing it is safe. Bounded, in case anything else
// compiles dynamic paths through the same function.
import { createRequire } from 'node:module';

type Compile = (path: unknown, options?: unknown) => unknown;
interface PathToRegexpModule { pathToRegexp: Compile; [MEMO]?: true }
const MEMO = Symbol.for('agent-readiness.pathToRegexpMemo');
const MAX_ENTRIES = 512;

const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const ptr = fromValidator('path-to-regexp') as PathToRegexpModule;

if (!ptr[MEMO]) {
  const original = ptr.pathToRegexp;
  const cache = new Map<string, unknown>();
  ptr.pathToRegexp = (path, options) => {
    if (typeof path !== 'string') return original(path, options);
    const key = `${path}\u0000${optionsKey(options)}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const compiled = original(path, options);
    if (cache.size < MAX_ENTRIES) cache.set(key, compiled);
    return compiled;
  };
  ptr[MEMO] = true;
}

/** The validator passes only {sensitive, strict}; anything else falls back to JSON. */
function optionsKey(options: unknown): string {
  if (options === undefined || options === null) return '-';
  const o = options as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.every((k) => k === 'sensitive' || k === 'strict')) return `${o.sensitive === true ? 'S' : 's'}${o.strict === true ? 'T' : 't'}`;
  return JSON.stringify(options);
}

/** The validator's path-to-regexp, for tests. */
export const validatorPathToRegexp = (): Compile => ptr.pathToRegexp;
