// Signed A2A agent cards (A2A v1.0.0 §8.4): a card signed as the spec says (detached JWS over its JCS
// form, key at the protected header's jku), the same card tampered after signing, and one whose
// jku names a key set without the signing kid. Signed by ../a2a-signing.ts (node:crypto and its own
// JCS, checked against RFC 8037 A.4), verified by the scanner with jose and canonicalize.
// Fidelity: synthetic card, wire format exact; the key is RFC 8037's published test key.
import type { Scenario } from '../site.ts';
import { jwks, signCard } from '../a2a-signing.ts';

const json = (v: unknown) => ({ type: 'application/json', body: JSON.stringify(v) });
// Literal host names, not {domain}: the signature covers the card's exact bytes as served.
const HOST = 'a2a-signed.world-fixtures.com';
const card = {
  name: 'Signed agent', description: 'Answers product questions', version: '1.0.0',
  supportedInterfaces: [{ url: `https://${HOST}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'products', name: 'Products', description: 'Finds products', tags: ['shop'] }],
};
const header = { alg: 'EdDSA', kid: 'world-a2a-1', jku: `https://${HOST}/.well-known/jwks.json`, typ: 'JOSE' };
const signed = signCard(card, header);
// After signing, the endpoint is pointed elsewhere: what a signature exists to catch.
const tampered = { ...signed, supportedInterfaces: [{ url: 'https://a2a-attacker.world-fixtures.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
const otherKid = signCard(card, { ...header, kid: 'world-a2a-retired' });
// An attacker-chosen key host that resolves to a private address: the guard refuses it, nothing is sent.
const internalJku = signCard(card, { ...header, jku: 'https://internal.world-fixtures.com/.well-known/jwks.json' });

export const A2A_SIGNED_SCENARIOS: Scenario[] = [
  {
    name: 'a2a-signed', about: 'An A2A v1.0 card signed as §8.4 says (EdDSA, key at jku): signature verified.',
    files: { '/.well-known/agent-card.json': json(signed), '/.well-known/jwks.json': json(jwks('world-a2a-1')) },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.a2a-card-v1': ['pass', 'A2A v1.0'] },
      previewDetails: { 'discovery.a2a-card-v1': /^v1\.0 card with 1 interface\(s\); signature verified: EdDSA, verified with key world-a2a-1 from jku https:\/\/a2a-signed\.world-fixtures\.com\/\.well-known\/jwks\.json$/ },
    },
  },
  {
    name: 'a2a-tampered', about: 'The same signed card with its endpoint changed after signing: signature invalid, a fail.',
    files: { '/.well-known/agent-card.json': json(tampered) },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.a2a-card-v1': ['fail', 'A2A v1.0'] },
      previewDetails: { 'discovery.a2a-card-v1': /^signature invalid: signature 1 invalid, the signature does not match the card; v1\.0 card with 1 interface\(s\)$/ },
    },
  },
  {
    name: 'a2a-unknown-kid', about: 'A signed card whose jku key set lacks the signing kid: signature invalid.',
    files: { '/.well-known/agent-card.json': json(otherKid) },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.a2a-card-v1': ['fail', 'A2A v1.0'] },
      previewDetails: { 'discovery.a2a-card-v1': /^signature invalid: signature 1 invalid, no key world-a2a-retired in jku https:\/\/a2a-signed\.world-fixtures\.com\/\.well-known\/jwks\.json/ },
    },
  },
  {
    name: 'a2a-jku-internal', about: 'A signed card whose jku names a host resolving to a private address: the guard refuses the fetch, the signature is left unverified, never invalid.',
    files: { '/.well-known/agent-card.json': json(internalJku) },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.a2a-card-v1': ['pass', 'A2A v1.0'] },
      previewDetails: { 'discovery.a2a-card-v1': /; signature not verified: the key set at https:\/\/internal\.world-fixtures\.com\/\.well-known\/jwks\.json could not be fetched$/ },
    },
  },
];
