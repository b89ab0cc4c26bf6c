/**
 * A validator for the small JSON Schema subset the pinned MCP Server Card schema uses (data/mcp-server-card-schema.ts):
 * type, properties, additionalProperties (false or a schema), required, enum, pattern, minLength/maxLength (in code
 * points, as JSON Schema counts), items, local $ref and format "uri". It interprets the pinned schema itself, so the
 * rules are the extension's, not ours; it exists because Ajv would add ~340 KB to the CLI bundle (over its cap).
 * test/scanner/mcp-discovery.test.ts checks it agrees with Ajv (2020-12, ajv-formats) on the extension's examples and
 * on a table of broken cards. A keyword outside the subset throws, so a newer schema cannot be half-checked silently.
 */
type Schema = Readonly<Record<string, unknown>>;
const KNOWN = new Set(['$schema', '$defs', '$ref', 'type', 'properties', 'additionalProperties', 'required', 'enum', 'pattern', 'minLength', 'maxLength', 'items', 'format']);

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}

/** RFC 3986 absolute URI: a scheme, then no whitespace; and a WHATWG URL parser accepts it. */
function isUri(s: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

export function validateSubset(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const visit = (schema: Schema, v: unknown, at: string): void => {
    for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} is outside the supported subset`);
    if (typeof schema.$ref === 'string') {
      const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
      const target = name ? (root.$defs as Record<string, Schema> | undefined)?.[name] : undefined;
      if (!target) throw new Error(`unresolvable $ref ${schema.$ref}`);
      visit(target, v, at);
    }
    const where = at || '(card)';
    if (typeof schema.type === 'string') {
      const t = typeOf(v);
      if (t !== schema.type && !(schema.type === 'number' && t === 'integer')) { errors.push(`${where} must be ${schema.type}`); return; }
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(v)) errors.push(`${where} must be one of ${schema.enum.join(', ')}`);
    if (typeof v === 'string') {
      const len = [...v].length;
      if (typeof schema.minLength === 'number' && len < schema.minLength) errors.push(`${where} must have at least ${schema.minLength} characters`);
      if (typeof schema.maxLength === 'number' && len > schema.maxLength) errors.push(`${where} must have at most ${schema.maxLength} characters`);
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v)) errors.push(`${where} must match pattern "${schema.pattern}"`);
      if (schema.format === 'uri' && !isUri(v)) errors.push(`${where} must be a URI`);
    }
    if (Array.isArray(v) && schema.items && typeof schema.items === 'object') v.forEach((item, i) => visit(schema.items as Schema, item, `${at}/${i}`));
    if (typeOf(v) === 'object') {
      const obj = v as Record<string, unknown>;
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`${where} must have required property '${r}'`);
      for (const [k, child] of Object.entries(obj)) {
        if (props[k]) visit(props[k], child, `${at}/${k}`);
        else if (schema.additionalProperties === false) errors.push(`${where} must NOT have additional properties (${k})`);
        else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') visit(schema.additionalProperties as Schema, child, `${at}/${k}`);
      }
    }
  };
  visit(root, value, '');
  return errors;
}
