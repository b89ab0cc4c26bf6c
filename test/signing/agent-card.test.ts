// Our Signature Agent Card (draft-meunier-webbotauth-registry-04): served at its client_id, linked
// from the key directory and /methodology.md, valid against a schema written from the draft's text
// (agent-card-schema.ts, which is shown to reject what the draft forbids), and stating the rate the
// scanner really keeps (its bound, its budget and RATE_LIMIT_PER_DOMAIN as configured).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { SIGNATURE_AGENT_CARD_04 } from './agent-card-schema.ts';
import { DEFAULT_CONCURRENCY, MAX_REQUESTS_PER_SCAN } from '../../src/scanner/engine.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => void;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(SIGNATURE_AGENT_CARD_04);
const errors = () => ajv.errorsText(validate.errors);

const CARD = '/.well-known/signature-agent-card';
const DIRECTORY = '/.well-known/http-message-signatures-directory';

describe('Signature Agent Card, https BASE_URL', () => {
  let t: TestApp;
  before(async () => { t = await testApp({ BASE_URL: 'https://agent-readiness.example', RATE_LIMIT_PER_DOMAIN: '5/30', SECURITY_CONTACT: 'mailto:abuse@agent-readiness.example' }); });
  after(() => t.close());

  test('is served at its client_id and validates against the draft-04 schema', async () => {
    const res = await request(t.app).get(CARD).expect(200).expect(conforms).expect('content-type', /^application\/json/);
    const card = res.body as Record<string, unknown> & { web_bot_auth: Record<string, unknown> };
    assert.ok(validate(card), errors());
    assert.equal(card.client_id, `https://agent-readiness.example${CARD}`, '§3.1.1: identical to the URL it is fetched from');
    assert.equal(card.jwks_uri, `https://agent-readiness.example${DIRECTORY}`);
    assert.equal(card.jwks, undefined, '§3.1.2: never both');
    assert.deepEqual(card.contacts, ['mailto:abuse@agent-readiness.example']);
    assert.equal(card.client_uri, 'https://agent-readiness.example/methodology.md');
    const rate = String(card.web_bot_auth['rate-expectation']);
    assert.match(rate, new RegExp(`max=${DEFAULT_CONCURRENCY} concurrent requests per network and site; max=${MAX_REQUESTS_PER_SCAN} requests per scan; scans per domain: burst 5, then 1 per 30 s`));
    assert.equal(card.web_bot_auth['rfc9309-compliance'], false);
    assert.ok((card.web_bot_auth['known-urls'] as string[]).includes('/.well-known/agent-card.json'));
  });

  test('the key directory links to it', async () => {
    const res = await request(t.app).get(DIRECTORY).expect(200);
    assert.equal(res.headers.link, `<${CARD}>; rel="describedby"; type="application/json"`);
  });

  test('/methodology.md links to it', async () => {
    const res = await request(t.app).get('/methodology.md').set('accept', 'text/markdown').expect(200);
    assert.ok(res.text.includes(`https://agent-readiness.example${CARD}`));
  });
});

describe('Signature Agent Card, http BASE_URL (local runs)', () => {
  let t: TestApp;
  before(async () => { t = await testApp(); });
  after(() => t.close());

  // Local runs only: signing is off on an http BASE_URL anyway (no signed probe is sent), and the
  // draft makes client_id an HTTPS URL (§3.1.1), so the card cannot be valid there. It says so by
  // failing on exactly that rule and no other.
  test('carries the key inline (jwks_uri must be https); its only fault is the http client_id', async () => {
    const card = (await request(t.app).get(CARD).expect(200).expect(conforms)).body as { jwks?: { keys: Array<{ x: string; kid: string }> }; jwks_uri?: string };
    assert.equal(validate(card), false);
    assert.deepEqual(validate.errors?.map((e) => e.instancePath), ['/client_id']);
    assert.equal(card.jwks_uri, undefined);
    const directory = JSON.parse((await request(t.app).get(DIRECTORY).expect(200)).text) as { keys: Array<{ x: string; kid: string }> };
    assert.deepEqual(card.jwks?.keys.map((k) => [k.x, k.kid]), directory.keys.map((k) => [k.x, k.kid]), 'the same key as the directory');
  });
});

describe('the draft-04 schema refuses what the draft forbids', () => {
  const good = { client_id: 'https://bot.example/card', client_name: 'Bot', web_bot_auth: { trigger: 'fetcher', 'rfc9309-compliance': true } };
  const table: Array<[string, Record<string, unknown>]> = [
    ['an empty object (§3: at least one parameter)', {}],
    ['no client_id on a card resolved through it (§3.1.1)', { client_name: 'Bot' }],
    ['an http client_id (§3.1.1)', { ...good, client_id: 'http://bot.example/card' }],
    ['both jwks_uri and jwks (§3.1.2)', { ...good, jwks_uri: 'https://bot.example/keys', jwks: { keys: [{ kty: 'OKP' }] } }],
    ['an http jwks_uri (§3.1.2)', { ...good, jwks_uri: 'http://bot.example/keys' }],
    ['a trigger outside fetcher/crawler (§3.2.4)', { ...good, web_bot_auth: { trigger: 'robot' } }],
    ['rfc9309-compliance as a string (§3.2.3, -04)', { ...good, web_bot_auth: { 'rfc9309-compliance': 'yes' } }],
  ];
  test('accepts the draft\'s own minimal example shape', () => assert.ok(validate(good), errors()));
  for (const [name, card] of table) test(`refuses ${name}`, () => assert.equal(validate(card), false));
});
