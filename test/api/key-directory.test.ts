// The Web Bot Auth key directory of the service: 200, its media type, a JWKS whose kid is the
// RFC 7638 thumbprint (recomputed here from the RFC's rules, not with the service's code), signed
// as draft-ietf-webbotauth-httpsig-protocol-01 Appendix B.1 says (checked by the test world's
// strict resolver, which shares no code with the signer), one key shared by every instance on one
// database, and the configured key when there is one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign, verify, createPublicKey } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app.ts';
import { startServices } from '../../src/services.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { loadConfig } from '../../src/config.ts';
import { resolveDirectory } from '../world/web-bot-auth/directory.ts';

const PATH = '/.well-known/http-message-signatures-directory';

/** RFC 7638 §3.2, for an OKP key: {"crv":…,"kty":…,"x":…} with no whitespace, SHA-256, base64url. */
function thumbprint(k: { crv: string; kty: string; x: string }): string {
  return createHash('sha256').update(`{"crv":"${k.crv}","kty":"${k.kty}","x":"${k.x}"}`).digest('base64url');
}

describe('key directory', () => {
  let t: TestApp;
  before(async () => { t = await testApp(); });
  after(() => t.close());

  test('is 200 application/http-message-signatures-directory+json with an Ed25519 key whose kid is its RFC 7638 thumbprint', async () => {
    const res = await request(t.app).get(PATH).expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /^application\/http-message-signatures-directory\+json/);
    const doc = JSON.parse(res.text) as { keys: Array<{ kty: string; crv: string; x: string; kid: string; d?: string }> };
    assert.equal(doc.keys.length, 1);
    const key = doc.keys[0]!;
    assert.deepEqual([key.kty, key.crv], ['OKP', 'Ed25519']);
    assert.equal(key.d, undefined, 'never the private half');
    assert.equal(key.kid, thumbprint(key));
  });

  test('the response proves possession of its key for BASE_URL\'s authority (Appendix B.1), and only for it', async () => {
    const res = await request(t.app).get(PATH).expect(200);
    assert.match(res.headers['signature-input']!, /^binding=\("@authority";req "content-digest"\);created=\d+;expires=\d+;keyid="[\w-]+";tag="http-message-signatures-directory"$/);
    assert.equal(res.headers['content-type'], 'application/http-message-signatures-directory+json', 'no charset or other parameter');
    const served = async () => ({ status: res.status, headers: res.headers as Record<string, string>, body: Buffer.from(res.text) });
    const key = await t.services.probeKey();
    // testApp's BASE_URL is http://agent-readiness.test: the proof names that authority.
    const dir = await resolveDirectory(`https://agent-readiness.test${PATH}`, served, Date.now());
    assert.deepEqual([...dir.keys.keys()], [key.kid]);
    await assert.rejects(resolveDirectory(`https://elsewhere.test${PATH}`, served, Date.now()), (e: { reason?: string }) => e.reason === 'directory-bad-signature');
  });

  test('the published key verifies what the service signs with its private key', async () => {
    const key = await t.services.probeKey();
    const published = (await request(t.app).get(PATH).expect(200)).body as { keys: Array<{ kty: string; crv: string; x: string }> };
    const message = Buffer.from('"@authority": example.com');
    const signature = sign(null, message, key.privateKey);
    assert.ok(verify(null, message, createPublicKey({ key: { ...published.keys[0]!, kty: 'OKP' } as never, format: 'jwk' }), signature));
  });

  test('a second instance on the same database publishes the same key', async () => {
    const other = startServices(t.ctx, { mailer: false });
    try {
      const a = (await request(t.app).get(PATH).expect(200)).body;
      const b = (await request(createApp(t.ctx, other)).get(PATH).expect(200)).body;
      assert.deepEqual(a, b);
    } finally {
      await other.stop();
    }
  });
});

describe('key directory with PROBE_SIGNING_KEY', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { x: string };
  let t: TestApp;
  before(async () => { t = await testApp({ PROBE_SIGNING_KEY: JSON.stringify(jwk) }); });
  after(() => t.close());

  test('publishes the configured key', async () => {
    const res = await request(t.app).get(PATH).expect(200).expect(conforms);
    assert.equal(res.body.keys[0].x, jwk.x);
  });

  test('a malformed PROBE_SIGNING_KEY is refused at start with a message naming it', () => {
    assert.throws(() => loadConfig({ PROBE_SIGNING_KEY: '{"kty":"RSA","n":"abc","e":"AQAB"}' }), /PROBE_SIGNING_KEY: must be an Ed25519 private key/);
  });
});
