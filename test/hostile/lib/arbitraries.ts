// fast-check generators for hostile requests: junk strings, valid bodies bent by a few
// mutations, raw bodies under every content type, query strings and path values.
import fc from 'fast-check';

/** Strings that have broken parsers, validators, templates and databases before. */
export const NASTY = [
  '', ' ', '\u0000', '%00', '%', '%zz', '%%', '../../../../etc/passwd', '..%2f..%2f', '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>', "' OR '1'='1' --", '"; DROP TABLE scans; --', '__proto__', 'constructor', 'prototype',
  '${{7*7}}', '{{7*7}}', '\ud800', '\uffff', '\u202e', 'A'.repeat(5000), '127.0.0.1', 'localhost', 'http://[::1]/', '0x7f.1',
  '169.254.169.254', 'xn--', 'xn--zz', '💥'.repeat(40), '\r\nX-Injected: 1', 'null', 'true', '1e309', '-0', 'NaN', 'Infinity',
  'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'https://user:pass@evil.com@example.com/',
  '\t\n\v\f\r', 'ａｄｍｉｎ', 'e\u0301', '0', '-1', '4294967296', '99999999999999999999999', 'a@b', '@', 'a'.repeat(253) + '.com',
];

export const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 32 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 32 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.domain() },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.emailAddress() },
);

/** Any JSON value, with junk strings and extreme numbers mixed in. */
export const junkJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    junkString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308, 999, 1000),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(junkString, fc.constantFrom('__proto__', 'constructor', 'domain', 'lead', 'id', 'method')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

export interface Mutation {
  kind: 'delete' | 'replace' | 'add' | 'wrap' | 'duplicate-array' | 'stringify';
  at: number;
  key: string;
  value: unknown;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'replace', 'replace', 'add', 'wrap', 'duplicate-array', 'stringify'),
  at: fc.nat(),
  key: fc.oneof(junkString, fc.constantFrom('__proto__', 'constructor', 'extra', 'lead', 'fresh', 'profile', 'id', 'params')),
  value: junkJson,
});

/** Applies mutations to a deep copy of `base`; the root itself may be replaced. */
export function mutate(base: unknown, muts: readonly Mutation[]): unknown {
  let root: unknown = structuredClone(base);
  for (const m of muts) {
    const paths = pathsOf(root);
    const path = paths[m.at % paths.length]!;
    const get = (p: Path) => p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)?.[k], root);
    const set = (p: Path, v: unknown) => {
      if (p.length === 0) {
        root = v;
        return;
      }
      const parent = get(p.slice(0, -1)) as Record<string | number, unknown>;
      Object.defineProperty(parent, p.at(-1)!, { value: v, enumerable: true, writable: true, configurable: true });
    };
    const here = get(path);
    switch (m.kind) {
      case 'delete': {
        if (path.length === 0) break;
        const parent = get(path.slice(0, -1));
        if (Array.isArray(parent)) parent.splice(path.at(-1) as number, 1);
        else delete (parent as Record<string, unknown>)[path.at(-1) as string];
        break;
      }
      case 'replace':
        set(path, m.value);
        break;
      case 'add':
        if (here && typeof here === 'object' && !Array.isArray(here)) {
          Object.defineProperty(here, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
        } else if (Array.isArray(here)) here.push(m.value);
        break;
      case 'wrap':
        set(path, [here]);
        break;
      case 'duplicate-array':
        set(path, Array.from({ length: 101 + (m.at % 50) }, () => structuredClone(here)));
        break;
      case 'stringify':
        set(path, typeof here === 'string' ? { value: here } : JSON.stringify(here ?? null));
        break;
    }
  }
  return root;
}

/** A body: a mutated valid one (most often), pure junk JSON, or text that is not JSON. */
export function bodyFrom(valid: readonly unknown[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...valid).map((v) => JSON.stringify(v)) },
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...valid), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, m]) => JSON.stringify(mutate(v, m)) ?? 'null') },
    { weight: 2, arbitrary: junkJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.oneof(junkString, fc.constantFrom('{', '{"a":', '[1,2', '{"domain":"x",}', '\ufeff{}', '{"a":1}{"b":2}', 'nul', '{"a":"\\ud800"}', '{"__proto__":{"polluted":1}}')) },
    { weight: 1, arbitrary: fc.constantFrom(...valid).map((v) => `${JSON.stringify(v).slice(0, -1)},"pad":"${'x'.repeat(200_000)}"}`) },
  );
}

export interface Framing {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  chunked: boolean;
  /** Lie about the length (shorter than the body is not possible on one socket; longer makes the server wait). */
  accept: string | undefined;
}

export const framing: fc.Arbitrary<Framing> = fc.record({
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-8',
        'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/merge-patch+json', 'application/vnd.api+json',
        'APPLICATION/JSON', 'application/json;;', 'application/xml', 'text/json', '*/*', 'application/json, text/plain',
      ),
    },
  ),
  contentEncoding: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus', 'gzip, gzip') }),
  chunked: fc.boolean(),
  accept: fc.constantFrom(undefined, '*/*', 'application/json', 'text/html', 'image/svg+xml', 'text/html, application/json;q=0.9', 'application/xml', 'text/markdown', 'application/json, text/event-stream'),
});

/** Query strings: junk keys and values, repeated keys, bracket syntax, raw reserved characters. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(junkString, fc.constantFrom('domain', 'domain[]', 'domain[a]', '__proto__[x]', 'constructor[prototype][x]', 'a.b', '')), junkString), { maxLength: 5 })
      .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&')}` : '')),
  },
  { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?domain', '?domain=%zz', '?domain=a&domain=b', '?domain=https://x.com/?a=b#c', '?%00=%00', `?domain=${'a'.repeat(3000)}`) },
);

/** encodeURIComponent that survives lone surrogates (they become U+FFFD, as a browser would send). */
export function encodeLoose(s: string): string {
  return encodeURIComponent(s.toWellFormed());
}

/** A path segment value: percent-encoded junk, or a hand-made malformed one. Never empty. */
export const pathValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: junkString.filter((s) => s.length > 0).map(encodeLoose) },
  { weight: 2, arbitrary: fc.uuid().map((s) => s) },
  { weight: 1, arbitrary: fc.uuid().map((s) => s.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%2e%2e', '..', '.', '%2F', 'a%00b', '%C0%AE', '~', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff') },
  { weight: 1, arbitrary: fc.domain() },
);
