// Signed A2A cards. First the world's signer against published vectors (so the fixtures the scanner
// is judged by are right independently of jose): RFC 8037 Appendix A.4's Ed25519 JWS byte for byte,
// and its JCS against `canonicalize` on RFC 8785 §3.2.3's sorting example. Then the scanner's
// verification, table-driven: key from jku, jwks_uri, an embedded jwk; a tampered card, an unknown
// kid, a symmetric algorithm, a key set that could not be fetched, no key at all.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import canonicalize from 'canonicalize';
import { jcs, jwks, RFC8037_KEY, signCard, signJws } from '../world/a2a-signing.ts';
import { verifyCardSignatures } from '../../src/scanner/a2a-signatures.ts';
import { check } from '../../src/scanner/checks/discovery.a2a-card-v1.ts';
import { evidence, DOMAIN, type Resp } from './fixtures.ts';

describe('the world signer, against published vectors', () => {
  test('reproduces RFC 8037 Appendix A.4 (Ed25519 JWS) exactly', () => {
    const { compact } = signJws({ alg: 'EdDSA' }, Buffer.from('Example of Ed25519 signing'));
    assert.equal(compact, 'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg');
  });
  test('its JCS sorts as RFC 8785 §3.2.3 does and equals canonicalize', () => {
    const o = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const keys = Object.keys(JSON.parse(jcs(o)) as object);
    // Object.keys puts the integer-like '1' first whatever the text order; compare the text instead.
    assert.equal(jcs(o), canonicalize(o));
    assert.ok(jcs(o).indexOf('"\\r"') < jcs(o).indexOf('"1"') && jcs(o).indexOf('"1"') < jcs(o).indexOf('"\u0080"') && jcs(o).indexOf('"\u20ac"') < jcs(o).indexOf('"\ud83d\ude00"') && jcs(o).indexOf('"\ud83d\ude00"') < jcs(o).indexOf('"\ufb33"'), keys.join(' '));
  });
});

const U = `https://${DOMAIN}`;
const CARD = {
  name: 'Shop agent', description: 'Orders', version: '1.0.0',
  supportedInterfaces: [{ url: `${U}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'order', name: 'Order', description: 'Places orders', tags: ['shop'] }],
};
const JKU = `${U}/.well-known/jwks.json`;
const json = (v: unknown): Resp => ({ body: JSON.stringify(v), headers: { 'content-type': 'application/json' } });
const keys: Record<string, [string, Resp]> = { [`a2a-keys:${JKU}`]: [JKU, json(jwks('k1'))] };
const PUBLIC = { kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x };

type Case = [name: string, card: Record<string, unknown>, followups: Record<string, [string, Resp]>, status: string, detail: RegExp];
const CASES: Case[] = [
  ['unsigned', CARD, {}, 'pass', /; unsigned$/],
  ['jku, kid found', signCard(CARD, { alg: 'EdDSA', kid: 'k1', jku: JKU }), keys, 'pass', /signature verified: EdDSA, verified with key k1 from jku/],
  ['jwks_uri in the unprotected header', { ...CARD, signatures: [{ ...(signCard(CARD, { alg: 'EdDSA', kid: 'k1' }).signatures as object[])[0], header: { jwks_uri: JKU } }] }, keys, 'pass', /from jwks_uri https/],
  ['embedded jwk: integrity only', signCard(CARD, { alg: 'EdDSA', jwk: PUBLIC }), {}, 'pass', /the key it embeds \(integrity only/],
  ['tampered after signing', { ...signCard(CARD, { alg: 'EdDSA', kid: 'k1', jku: JKU }), description: 'Refunds' }, keys, 'fail', /^signature invalid: signature 1 invalid, the signature does not match the card/],
  ['kid not in the key set', signCard(CARD, { alg: 'EdDSA', kid: 'k9', jku: JKU }), keys, 'fail', /no key k9 in jku/],
  ['a symmetric algorithm', signCard(CARD, { alg: 'HS256', kid: 'k1', jku: JKU }), keys, 'fail', /HS256 is not an asymmetric JWS algorithm/],
  ['the key set could not be fetched', signCard(CARD, { alg: 'EdDSA', kid: 'k1', jku: JKU }), { [`a2a-keys:${JKU}`]: [JKU, { error: 'TIMEOUT' }] }, 'pass', /signature not verified: the key set at .* could not be fetched/],
  ['no key named', signCard(CARD, { alg: 'EdDSA', kid: 'k1' }), {}, 'pass', /signature not verified: the signature names no key/],
  ['a v0.3 card, signed and verified, still fails on shape', signCard({ name: 'A', description: 'B', url: `${U}/a2a`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] }, { alg: 'EdDSA', kid: 'k1', jku: JKU }), keys, 'fail', /v0\.3 shape.*; signature verified/],
];

describe('discovery.a2a-card-v1 with signatures', () => {
  for (const [name, card, followups, status, detail] of CASES) {
    test(name, async () => {
      const ev = evidence({ files: { '/.well-known/agent-card.json': json(card) }, followups });
      const sigs = await verifyCardSignatures(ev);
      if (sigs) ev.a2aSignatures = sigs;
      const o = check.evaluate(ev);
      assert.equal(o.status, status, o.detail);
      assert.match(o.detail, detail);
    });
  }
  test('a signed card whose signatures were not checked (evidence from before) says so and keeps its shape outcome', () => {
    const ev = evidence({ files: { '/.well-known/agent-card.json': json(signCard(CARD, { alg: 'EdDSA', kid: 'k1', jku: JKU })) } });
    const o = check.evaluate(ev);
    assert.equal(o.status, 'pass');
    assert.match(o.detail, /signed, signature not checked in this scan/);
  });
});
