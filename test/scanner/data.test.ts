// Versioned data files: roster-v1.0, fingerprints-v1.0 and fingerprints-v1.1 are well-formed and self-consistent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ROSTER_V1_0, BROWSER_UA } from '../../src/scanner/data/roster-v1.0.ts';
import { FINGERPRINTS_V1_0 } from '../../src/scanner/data/fingerprints-v1.0.ts';
import { FINGERPRINTS_V1_1 } from '../../src/scanner/data/fingerprints-v1.1.ts';
import { FINGERPRINT_SETS, FINGERPRINTS } from '../../src/scanner/fingerprints.ts';
import { FINGERPRINTS_VERSION } from '../../src/scanner/versions.ts';
import { agentForUserAgent } from '../../src/scanner/roster.ts';

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

  test('the current fingerprint set is the one versions.fingerprints names, and v1.0 stays loadable', () => {
    assert.equal(FINGERPRINTS, FINGERPRINT_SETS[FINGERPRINTS_VERSION]);
    assert.equal(FINGERPRINT_SETS['fingerprints-v1.0'], FINGERPRINTS_V1_0);
  });
});
