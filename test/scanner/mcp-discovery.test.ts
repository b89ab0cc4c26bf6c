// The pinned Server Card schema agrees with the server-card extension's own examples (copied verbatim,
// test/fixtures/mcp-server-card/README.md): every valid example passes, every invalid one is refused. The
// scanner's schema-subset validator is checked against Ajv (2020-12 with ajv-formats, an independent
// implementation) on those examples and on a table of broken cards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { serverCardProblems } from '../../src/scanner/mcp-discovery.ts';
import { SERVER_CARD_SCHEMA } from '../../src/scanner/data/mcp-server-card-schema.ts';
import { validateSubset } from '../../src/scanner/schema-subset.ts';
import { x402Discovery } from '../../src/scanner/payment.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const oracle = ajv.compile(SERVER_CARD_SCHEMA as unknown as object);

const dir = new URL('../fixtures/mcp-server-card/', import.meta.url);
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));
const read = (f: string) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Record<string, unknown>;

test('the extension ships valid and invalid examples', () => {
  assert.ok(examples.filter((f) => f.startsWith('valid-')).length >= 2);
  assert.ok(examples.filter((f) => f.startsWith('invalid-')).length >= 4);
});
for (const f of examples) {
  test(`pinned schema: ${f}`, () => {
    const card = read(f);
    const problems = serverCardProblems(card);
    if (f.startsWith('valid-')) assert.deepEqual(problems, []);
    else assert.ok(problems.length > 0, `${f} should be refused`);
    assert.equal(problems.length === 0, oracle(card), `${f}: Ajv agrees`);
  });
}

const minimal = read('valid-minimal.json');
const remote = (r: Record<string, unknown>) => ({ ...minimal, remotes: [{ type: 'streamable-http', url: 'https://a.example/mcp', ...r }] });
const BROKEN: Array<[string, unknown]> = [
  ['not an object', ['x']],
  ['description of 101 characters', { ...minimal, description: 'x'.repeat(101) }],
  ['description of 100 emoji (code points, not UTF-16 units)', { ...minimal, description: '😀'.repeat(100) }],
  ['empty title', { ...minimal, title: '' }],
  ['name of two characters', { ...minimal, name: 'a/' }],
  ['name with two slashes', { ...minimal, name: 'a/b/c' }],
  ['an unknown member', { ...minimal, tools: [] }],
  ['version as a number', { ...minimal, version: 1 }],
  ['websiteUrl that is no URI', { ...minimal, websiteUrl: 'not a uri' }],
  ['remote of type websocket', remote({ type: 'websocket' })],
  ['remote without url', { ...minimal, remotes: [{ type: 'sse' }] }],
  ['remote url template', remote({ url: '{tenant}.example.com/mcp' })],
  ['remote url with a space', remote({ url: 'https://a.example/ mcp' })],
  ['remote with an unknown member', remote({ transport: 'x' })],
  ['header without a name', remote({ headers: [{ value: 'x' }] })],
  ['header with a variable of an unknown format', remote({ headers: [{ name: 'A', variables: { t: { format: 'date' } } }] })],
  ['icon without src', { ...minimal, icons: [{ mimeType: 'image/png' }] }],
  ['icon theme sepia', { ...minimal, icons: [{ src: 'https://a.example/i.png', theme: 'sepia' }] }],
  ['repository without source', { ...minimal, repository: { url: 'https://github.com/a/b' } }],
  ['_meta as an array', { ...minimal, _meta: [] }],
  ['a full valid card', { ...minimal, title: 'T', websiteUrl: 'https://a.example/', icons: [{ src: 'https://a.example/i.png', sizes: ['48x48'], theme: 'dark' }], repository: { source: 'github', url: 'https://github.com/a/b', id: '1' }, _meta: { 'com.example/x': 1 }, remotes: [{ type: 'sse', url: 'https://a.example/sse', supportedProtocolVersions: ['2025-11-25'], headers: [{ name: 'Authorization', isSecret: true, variables: { token: { isRequired: true } } }], variables: { t: { choices: ['a'] } } }] }],
];
for (const [name, card] of BROKEN) {
  test(`schema subset agrees with Ajv: ${name}`, () => assert.equal(validateSubset(SERVER_CARD_SCHEMA, card).length === 0, oracle(card), JSON.stringify(validateSubset(SERVER_CARD_SCHEMA, card))));
}

test('a schema keyword outside the subset is refused, never skipped', () => {
  assert.throws(() => validateSubset({ type: 'object', oneOf: [] }, {}), /outside the supported subset/);
});

// x402's discovery document, decoded tolerantly (src/scanner/payment.ts).
const X402_TABLE: Array<[string, string, string, RegExp]> = [
  ['the x402scan shape', JSON.stringify({ version: 1, resources: ['https://a.example/api/1', 'https://a.example/api/2'], ownershipProofs: ['0x1'] }), 'present', /version 1\) lists 2 paid resources \(https:\/\/a\.example\/api\/1, https:\/\/a\.example\/api\/2\) and 1 ownership proof$/],
  ['resources as objects', JSON.stringify({ resources: [{ resource: 'https://a.example/x' }, { url: 'https://a.example/y' }] }), 'present', /lists 2 paid resources/],
  ['no resources list', JSON.stringify({ version: 1 }), 'invalid', /has no resources list/],
  ['not JSON', 'hello', 'invalid', /is not JSON/],
];
for (const [name, body, state, summary] of X402_TABLE) {
  test(`x402 discovery: ${name}`, () => {
    const d = x402Discovery(body);
    assert.equal(d.state, state);
    assert.match(d.summary, summary);
  });
}

// A catalog is attacker-chosen input: only http(s) card URLs of the card type, deduplicated, at most MCP_CARD_FOLLOW.
import { cardUrlsToFollow, MCP_CARD_FOLLOW } from '../../src/scanner/mcp-discovery.ts';
import { evidence, DOMAIN } from './fixtures.ts';
test('a hostile catalog: 500 entries, odd schemes, other types and duplicates give at most 3 http(s) card URLs', () => {
  const entries = [
    { type: 'application/mcp-server-card+json', url: 'javascript:alert(1)' },
    { type: 'application/mcp-server-card+json', url: 'file:///etc/passwd' },
    { type: 'application/json', url: `https://${DOMAIN}/not-a-card` },
    { type: 'application/mcp-server-card+json', url: '/relative/server-card' },
    { type: 'application/mcp-server-card+json', url: '/relative/server-card' },
    { type: 'application/mcp-server-card+json', url: 42 },
    ...Array.from({ length: 500 }, (_, i) => ({ type: 'application/mcp-server-card+json', url: `https://other.example/${i}/server-card` })),
  ];
  const ev = evidence({ files: { '/.well-known/mcp/catalog.json': { body: JSON.stringify({ specVersion: 'draft', entries }), headers: { 'content-type': 'application/json' } } } });
  const urls = cardUrlsToFollow(ev);
  assert.equal(urls.length, MCP_CARD_FOLLOW);
  assert.deepEqual(urls, [`https://${DOMAIN}/relative/server-card`, 'https://other.example/0/server-card', 'https://other.example/1/server-card']);
});
