// Our signer and the world's strict verifier against the test vectors of
// draft-ietf-webbotauth-httpsig-protocol-01 Appendix E.2 (EdDSA), made with the Ed25519 test key of
// RFC 9421 Appendix B.1.4 ("test-key-ed25519"; both halves are published there). Ed25519 is
// deterministic, so a signer that builds the signature base exactly as RFC 9421 §2.5 says reproduces
// the draft's signatures byte for byte; neither side of this test wrote those bytes.
// Source: https://github.com/webbotauth/draft-ietf-webbotauth-httpsig-protocol (draft text, Appendix E).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { isInnerList, parseDictionary, type InnerList } from 'structured-headers';
import { webBotAuthHeaders } from '../../src/signing/web-bot-auth.ts';
import { signedKeyDirectory } from '../../src/signing/directory.ts';
import { jwkThumbprint, type ProbeKey, type PublicJwk } from '../../src/signing/keys.ts';
import { componentsOf, signatureBase, ed25519Verifies, signatureBytes } from '../world/web-bot-auth/base.ts';
import { verifyRequest } from '../world/web-bot-auth/verify.ts';
import { resolveDirectory } from '../world/web-bot-auth/directory.ts';

/** RFC 9421 Appendix B.1.4. */
const B14_PRIVATE = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n';
const privateKey = createPrivateKey(B14_PRIVATE);
const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as PublicJwk;
const B14: ProbeKey = { privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x }, kid: jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x }) };

/** Appendix E.2.1 "Signature-Agent Included Present on the Request", as printed in the draft. */
const E21 = {
  authority: 'example.com',
  signatureAgent: 'agent2="https://signature-agent.test"',
  signatureInput: 'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
  signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
  base: [
    '"@authority": example.com',
    '"signature-agent";key="agent2": "https://signature-agent.test"',
    '"@signature-params": ("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
  ].join('\n'),
};

/** Appendix E.2.3 "Signed Directory Response". */
const E23 = {
  body: '{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}',
  contentDigest: 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
  signatureInput: 'binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
  signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
};

const AT_VECTOR_TIME = () => 1735689660_000;

describe('draft-ietf-webbotauth-httpsig-protocol-01 Appendix E.2 vectors', () => {
  test('the key is RFC 9421 B.1.4 and its RFC 7638 thumbprint is the vectors\' keyid', () => {
    assert.equal(B14.publicJwk.x, 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs');
    assert.equal(B14.kid, 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
  });

  test('E.2.1: our signer reproduces the request signature byte for byte', async () => {
    const h = await webBotAuthHeaders({
      url: 'https://example.com/', key: B14, agentUrl: 'https://signature-agent.test',
      created: new Date(1735689600_000), expires: new Date(4889289600_000),
      nonce: 'n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==',
      // The vector keys its member "agent2" under the label "sig2"; ours always match (§5.2.1).
      label: 'sig2', components: ['@authority', 'signature-agent;key="agent2"'], agentField: E21.signatureAgent,
    });
    assert.deepEqual(h, { 'signature-agent': E21.signatureAgent, 'signature-input': E21.signatureInput, signature: E21.signature });
  });

  test('E.2.1: the strict verifier rebuilds the printed signature base and the signature verifies over it', () => {
    const list = parseDictionary(E21.signatureInput).get('sig2') as InnerList;
    assert.ok(isInnerList(list));
    const base = signatureBase(componentsOf(list), list, { authority: E21.authority, fields: { 'signature-agent': E21.signatureAgent } });
    assert.equal(base, E21.base);
    assert.ok(ed25519Verifies(createPublicKey(privateKey), base, signatureBytes(parseDictionary(E21.signature), 'sig2')));
  });

  test('E.2.1 as sent is refused by the strict policy: its member "agent2" is not its label "sig2" (§5.2.1)', async () => {
    const v = await verifyRequest(
      { authority: E21.authority, method: 'GET', path: '/', fields: { 'signature-agent': E21.signatureAgent, 'signature-input': E21.signatureInput, signature: E21.signature } },
      { nowMs: AT_VECTOR_TIME, keysAt: async () => createPublicKey(privateKey), recordNonce: () => true },
    );
    assert.deepEqual([v.outcome, v.reason], ['invalid', 'member-not-own-label']);
  });

  test('E.2.3: our directory signer reproduces the signed directory response byte for byte', async () => {
    const d = await signedKeyDirectory([B14], 'https://signature-agent.test', { created: new Date(1735689600_000), expires: new Date(4889289600_000) });
    assert.equal(d.body, E23.body);
    assert.deepEqual(d.headers, { 'content-digest': E23.contentDigest, 'signature-input': E23.signatureInput, signature: E23.signature });
  });

  const served = (headers: Record<string, string>, body = E23.body) => async () => ({
    status: 200, body: Buffer.from(body),
    headers: { 'content-type': 'application/http-message-signatures-directory+json', 'content-digest': E23.contentDigest, 'signature-input': E23.signatureInput, signature: E23.signature, ...headers },
  });
  const url = 'https://signature-agent.test/.well-known/http-message-signatures-directory';
  test('E.2.3: the strict resolver accepts the vector directory and proves its key', async () => {
    const dir = await resolveDirectory(url, served({}), AT_VECTOR_TIME());
    assert.deepEqual([...dir.keys.keys()], ['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U']);
  });

  // One change to the vector response each, and the reason the resolver must give.
  const directoryFaults: Array<[string, Parameters<typeof resolveDirectory>, string]> = [
    ['served under another authority (a re-served copy)', ['https://copy.test/.well-known/http-message-signatures-directory', served({}), AT_VECTOR_TIME()], 'directory-bad-signature'],
    ['a body changed after signing', [url, served({}, E23.body.replace('"use":"sig"', '"use":"enc"')), AT_VECTOR_TIME()], 'directory-digest-mismatch'],
    ['no signature', [url, served({ 'signature-input': '', signature: '' }), AT_VECTOR_TIME()], 'directory-unsigned'],
    ['no Content-Digest', [url, served({ 'content-digest': '' }), AT_VECTOR_TIME()], 'directory-digest-missing'],
    ['a created in the future', [url, served({}), 1735689600_000 - 3600_000], 'directory-created-in-future'],
    ['the wrong media type', [url, served({ 'content-type': 'application/json' }), AT_VECTOR_TIME()], 'directory-media-type'],
    ['a redirect', [url, async () => ({ status: 302, headers: { location: 'https://elsewhere.test/' }, body: Buffer.alloc(0) }), AT_VECTOR_TIME()], 'directory-not-200'],
  ];
  for (const [name, args, reason] of directoryFaults) {
    test(`E.2.3 with ${name} is refused: ${reason}`, async () => {
      await assert.rejects(resolveDirectory(...args), (err: { reason?: string }) => err.reason === reason);
    });
  }
});
