// Versioned data files: roster-v1.0 and fingerprints-v1.0, v1.1 and v1.2 are well-formed and self-consistent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ROSTER_V1_0, BROWSER_UA } from '../../src/scanner/data/roster-v1.0.ts';
import { FINGERPRINTS_V1_0 } from '../../src/scanner/data/fingerprints-v1.0.ts';
import { FINGERPRINTS_V1_1 } from '../../src/scanner/data/fingerprints-v1.1.ts';
import { FINGERPRINTS_V1_2 } from '../../src/scanner/data/fingerprints-v1.2.ts';
import { fold } from '../../src/scanner/rendered.ts';
import { FINGERPRINT_SETS, FINGERPRINTS } from '../../src/scanner/fingerprints.ts';
import { FINGERPRINTS_VERSION } from '../../src/scanner/versions.ts';
import { agentForUserAgent, agentHeaders, controlHeaders, getRoster, headerValue, productArrivals, ROSTER_VERSIONS } from '../../src/scanner/roster.ts';
import { CONTROL_V1_1, PRODUCTS_V1_1, ROSTER_V1_1 } from '../../src/scanner/data/roster-v1.1.ts';
import { gridKeys } from '../../src/scanner/grid.ts';
import { ROSTER_VERSION } from '../../src/scanner/versions.ts';
import type { ArrivalRequest } from '../../src/scanner/data/arrival.ts';

const Agent = Type.Object({
  token: Type.String({ pattern: '^[A-Za-z0-9._-]+$' }),
  vendor: Type.String({ minLength: 2 }),
  intent: Type.Union([Type.Literal('training'), Type.Literal('user-fetch'), Type.Literal('search'), Type.Literal('archive')]),
  tokenOnly: Type.Boolean(),
  ua: Type.Union([Type.String({ minLength: 5 }), Type.Null()]),
  ipList: Type.Union([Type.String({ pattern: '^https://' }), Type.Null()]),
  robotsFallback: Type.Optional(Type.String()),
  contextOnly: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

const Markers = Type.Object({
  headers: Type.Optional(Type.Array(Type.Tuple([Type.String({ pattern: '^[a-z0-9-]+$' }), Type.String()]))),
  cookies: Type.Optional(Type.Array(Type.String({ minLength: 2 }))),
  body: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  bodyAll: Type.Optional(Type.Array(Type.String({ minLength: 4 }), { minItems: 2 })),
  text: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  markup: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  textAll: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  markupAll: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  textPattern: Type.Optional(Type.String({ minLength: 4 })),
  unless: Type.Optional(Type.Array(Type.String({ minLength: 4 }))),
  bodyMaxBytes: Type.Optional(Type.Integer({ minimum: 1 })),
  statuses: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }))),
}, { additionalProperties: false });
const Vendor = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9-]+$' }), name: Type.String(), presence: Markers,
  challenge: Type.Optional(Type.Array(Markers)), deny: Type.Optional(Type.Array(Markers)), rateLimit: Type.Optional(Type.Array(Markers)),
}, { additionalProperties: false });

describe('versioned data', () => {
  test('roster-v1.0: every entry matches the schema, tokens are unique', () => {
    for (const a of ROSTER_V1_0) assert.ok(Value.Check(Agent, a), `${a.token}: ${[...Value.Errors(Agent, a)].map((e) => e.message).join('; ')}`);
    assert.equal(new Set(ROSTER_V1_0.map((a) => a.token.toLowerCase())).size, ROSTER_V1_0.length);
  });

  test('roster-v1.0: token-only agents have no UA, probeable ones send a UA that names their own token (and no other)', () => {
    for (const a of ROSTER_V1_0) {
      if (a.tokenOnly) assert.equal(a.ua, null, a.token);
      else assert.equal(agentForUserAgent(a.ua!)?.token, a.token, `${a.token}'s UA is matched to ${agentForUserAgent(a.ua!)?.token}`);
    }
    assert.equal(agentForUserAgent(BROWSER_UA), undefined, 'the browser control names no agent');
  });

  test('roster-v1.0: every intent is represented and a fallback names a roster token', () => {
    for (const intent of ['training', 'user-fetch', 'search', 'archive']) assert.ok(ROSTER_V1_0.some((a) => a.intent === intent && !a.tokenOnly), intent);
    for (const a of ROSTER_V1_0) if (a.robotsFallback) assert.ok(ROSTER_V1_0.some((b) => b.token === a.robotsFallback), a.token);
  });

  test('roster-v1.1: the same tokens in the same order as roster-v1.0, so every grid key of an archived report still names its agent', () => {
    assert.equal(ROSTER_VERSION, 'roster-v1.1');
    assert.deepEqual(ROSTER_V1_1.map((a) => a.token), ROSTER_V1_0.map((a) => a.token));
    assert.deepEqual(gridKeys('roster-v1.1'), gridKeys('roster-v1.0'));
    assert.deepEqual(ROSTER_VERSIONS, ['roster-v1.0', 'roster-v1.1']);
    assert.equal(getRoster('roster-v1.0'), ROSTER_V1_0, 'roster-v1.0 stays loadable as it was');
    for (const a of ROSTER_V1_0) assert.equal(a.request, undefined, `${a.token}: roster-v1.0 carries no request of its own`);
    assert.deepEqual(controlHeaders('roster-v1.0'), [['user-agent', BROWSER_UA], ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'], ['accept-language', 'en-US,en;q=0.9'], ['accept-encoding', 'gzip, deflate, br']]);
  });

  /** A request as data: headers with a basis each, sources, a note that says what is not published. */
  const checkRequest = (label: string, r: ArrivalRequest) => {
    const names = r.headers.map(([n]) => n.toLowerCase());
    assert.equal(new Set(names).size, names.length, `${label}: no header twice`);
    assert.deepEqual(Object.keys(r.basis).sort(), [...names].sort(), `${label}: a basis for every header, and none for a header not sent`);
    for (const [n, v] of r.headers) assert.match(`${n}: ${v}`, /^[!#$%&'*+.^_`|~0-9A-Za-z-]+: [\x20-\x7e]+$/, `${label}: ${n} is a valid header line`);
    assert.ok(r.sources.length > 0, `${label}: sources`);
    for (const src of r.sources) assert.ok(src.url.startsWith('https://') || src.url.startsWith('test/'), `${label}: ${src.url}`);
    if (Object.values(r.basis).includes('default')) assert.match(r.note, /not published|No public capture/, `${label}: says what is not published`);
    if (r.order === 'default') assert.match(r.note, /order is not published/i, `${label}: says the order is ours`);
  };

  test('roster-v1.1: every probeable agent carries its whole request, whose User-Agent is its ua and names its own token', () => {
    for (const a of ROSTER_V1_1) {
      if (a.tokenOnly) { assert.equal(a.request, undefined, a.token); continue; }
      assert.ok(a.request, `${a.token} carries a request`);
      checkRequest(a.token, a.request);
      assert.equal(headerValue(agentHeaders(a), 'user-agent'), a.ua, a.token);
      assert.equal(agentForUserAgent(a.ua!)?.token, a.token, a.token);
    }
    const bot = ROSTER_V1_1.find((a) => a.token === 'PerplexityBot')!;
    assert.equal(headerValue(agentHeaders(bot), 'accept'), undefined, 'PerplexityBot was captured sending no Accept, so none is sent');
  });

  test('roster-v1.1: the browser control is Chrome\'s navigation request, Fetch Metadata and client hints included, naming no agent', () => {
    checkRequest('control', CONTROL_V1_1);
    const names = CONTROL_V1_1.headers.map(([n]) => n.toLowerCase());
    for (const h of ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'upgrade-insecure-requests', 'user-agent', 'accept', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-user', 'sec-fetch-dest', 'accept-encoding', 'accept-language']) assert.ok(names.includes(h), h);
    const ua = headerValue(CONTROL_V1_1.headers, 'user-agent')!;
    assert.doesNotMatch(ua, /Headless/);
    assert.match(headerValue(CONTROL_V1_1.headers, 'sec-ch-ua')!, /"Google Chrome";v="(\d+)"/);
    assert.equal(ua.match(/Chrome\/(\d+)/)![1], headerValue(CONTROL_V1_1.headers, 'sec-ch-ua')!.match(/"Google Chrome";v="(\d+)"/)![1], 'UA and brand list name one Chrome version');
    assert.equal(agentForUserAgent(ua), undefined);
  });

  test('roster-v1.1: products sharing a token ask for Markdown as published, and name the token they carry', () => {
    assert.equal(productArrivals(), PRODUCTS_V1_1);
    assert.deepEqual(productArrivals('roster-v1.0'), []);
    for (const p of PRODUCTS_V1_1) {
      checkRequest(p.id, p.request);
      const ua = headerValue(p.request.headers, 'user-agent')!;
      assert.equal(agentForUserAgent(ua)?.token ?? null, p.token, `${p.id} carries ${p.token}`);
      if (p.asks === 'accept') assert.match(headerValue(p.request.headers, 'accept')!, /text\/markdown/, p.id);
    }
    assert.equal(headerValue(PRODUCTS_V1_1.find((p) => p.id === 'claude-code')!.request.headers, 'accept'), 'text/markdown, text/html, */*');
  });

  test('fingerprints-v1.0: schema, unique ids, valid header regexes, the nine vendors of the brief', () => {
    for (const f of FINGERPRINTS_V1_0) {
      assert.ok(Value.Check(Vendor, f), `${f.id}: ${[...Value.Errors(Vendor, f)].map((e) => `${e.path} ${e.message}`).join('; ')}`);
      for (const set of [f.presence, ...(f.challenge ?? []), ...(f.deny ?? []), ...(f.rateLimit ?? [])]) for (const [, re] of set.headers ?? []) assert.doesNotThrow(() => new RegExp(re, 'i'));
    }
    assert.equal(new Set(FINGERPRINTS_V1_0.map((f) => f.id)).size, FINGERPRINTS_V1_0.length);
    for (const id of ['cloudflare', 'akamai', 'imperva', 'datadome', 'human', 'aws-waf', 'vercel', 'fastly', 'sucuri']) assert.ok(FINGERPRINTS_V1_0.some((f) => f.id === id), id);
  });

  test('fingerprints-v1.1: schema, unique ids, valid header regexes, every v1.0 vendor kept, at least 25 vendors', () => {
    for (const f of FINGERPRINTS_V1_1) {
      assert.ok(Value.Check(Vendor, f), `${f.id}: ${[...Value.Errors(Vendor, f)].map((e) => `${e.path} ${e.message}`).join('; ')}`);
      for (const set of [f.presence, ...(f.challenge ?? []), ...(f.deny ?? []), ...(f.rateLimit ?? [])]) for (const [, re] of set.headers ?? []) assert.doesNotThrow(() => new RegExp(re, 'i'));
    }
    assert.equal(new Set(FINGERPRINTS_V1_1.map((f) => f.id)).size, FINGERPRINTS_V1_1.length);
    for (const f of FINGERPRINTS_V1_0) assert.ok(FINGERPRINTS_V1_1.some((g) => g.id === f.id), `${f.id} of v1.0 is still known`);
    assert.ok(FINGERPRINTS_V1_1.length >= 25, `${FINGERPRINTS_V1_1.length} vendors`);
  });

  test('fingerprints-v1.2: schema, every v1.1 vendor kept, and every marker that decides an outcome reads the rendered page', () => {
    for (const f of FINGERPRINTS_V1_2) {
      assert.ok(Value.Check(Vendor, f), `${f.id}: ${[...Value.Errors(Vendor, f)].map((e) => `${e.path} ${e.message}`).join('; ')}`);
      for (const set of [f.presence, ...(f.challenge ?? []), ...(f.deny ?? []), ...(f.rateLimit ?? [])]) for (const [, re] of set.headers ?? []) assert.doesNotThrow(() => new RegExp(re, 'i'));
      for (const set of [...(f.challenge ?? []), ...(f.deny ?? []), ...(f.rateLimit ?? [])]) {
        assert.equal(set.body ?? set.bodyAll, undefined, `${f.id}: a marker that decides an outcome is a text or markup marker, not bytes`);
        // A rendered marker is written as it renders: no entity, no run of whitespace.
        if (set.textPattern) assert.doesNotThrow(() => new RegExp(set.textPattern!, 'i'));
        for (const m of [...(set.text ?? []), ...(set.markup ?? []), ...(set.textAll ?? []), ...(set.markupAll ?? []), ...(set.unless ?? [])]) {
          assert.doesNotMatch(m, /&[#a-z0-9]+;|\s\s/i, `${f.id}: "${m}" is written as a browser renders it`);
          assert.equal(fold(m), m.toLowerCase(), `${f.id}: "${m}"`);
        }
      }
    }
    assert.equal(new Set(FINGERPRINTS_V1_2.map((f) => f.id)).size, FINGERPRINTS_V1_2.length);
    for (const f of FINGERPRINTS_V1_1) assert.ok(FINGERPRINTS_V1_2.some((g) => g.id === f.id), `${f.id} of v1.1 is still known`);
  });

  test('the current fingerprint set is the one versions.fingerprints names, and older sets stay loadable', () => {
    assert.equal(FINGERPRINTS, FINGERPRINT_SETS[FINGERPRINTS_VERSION]);
    assert.equal(FINGERPRINT_SETS['fingerprints-v1.0'], FINGERPRINTS_V1_0);
    assert.equal(FINGERPRINT_SETS['fingerprints-v1.1'], FINGERPRINTS_V1_1);
  });
});
