// Signed probes as ourselves, end to end through the test world. The service itself (a real app on
// a real database, BASE_URL https://agent-readiness.world-fixtures.com) serves its signed key
// directory as a world site; the scanner signs with the service's key exactly as services.ts wires
// it; the world site `wba-signed-only` verifies every signed request with the world's strict
// verifier (test/world/web-bot-auth/), which shares no code with the signer, resolves the directory
// through the world and checks the directory's own signature. Then one rule at a time is broken by
// a test signer (the real signing function with one input changed) and the same site must refuse it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { parseDictionary, type InnerList } from 'structured-headers';
import { createScanner } from '../../src/scanner/engine.ts';
import type { ProbeKey } from '../../src/signing/keys.ts';
import { loadProbeKey } from '../../src/signing/stored-key.ts';
import { newNonce, signatureAgentUrl, VALIDITY_MS, webBotAuthHeaders, webBotAuthSigner, type SignatureInput } from '../../src/signing/web-bot-auth.ts';
import { signedKeyDirectory, DIRECTORY_SIGNATURE_MS } from '../../src/signing/directory.ts';
import type { Egress } from '../../src/net/egress.ts';
import { startWorld, type World } from '../world/index.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

const BASE = 'https://agent-readiness.world-fixtures.com';
const AGENT_URL = `${BASE}/.well-known/http-message-signatures-directory`;
const SITE = 'https://wba-signed-only.world-fixtures.com/';
const UA = `agent-readiness/1.0 (+${BASE}/methodology.md)`;
const COPY_DIRECTORY = 'https://keys-copy.world-fixtures.com/.well-known/http-message-signatures-directory';

const nonceOf = (signatureInput: string) => (parseDictionary(signatureInput).get('sig1') as InnerList)[1].get('nonce');

describe('Web Bot Auth probes as agent-readiness, verified strictly by the world', () => {
  let world: World;
  let t: TestApp;
  let app: Express | undefined;
  let key: ProbeKey;
  const served: string[] = [];

  before(async () => {
    world = await startWorld({
      handlers: {
        // The service, as a site of the world: its own key directory, signed by its own handler.
        'agent-readiness': (req: IncomingMessage, res: ServerResponse) => {
          served.push(req.url ?? '');
          app!(req as never, res as never);
        },
        // A copy of our directory re-served under another name: its proof names our authority, not this one.
        'keys-copy': (req, res) => void signedKeyDirectory([key], BASE, { created: new Date(), expires: new Date(Date.now() + DIRECTORY_SIGNATURE_MS) }).then((d) => {
          res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', ...d.headers }).end(d.body);
        }),
        // A site whose home page sends every visitor to the verifying site (another authority).
        'wba-hop': (_req, res) => void res.writeHead(301, { location: SITE }).end(),
      },
    });
    t = await testApp({ BASE_URL: BASE });
    app = t.app;
    key = await t.services.probeKey();
  });
  after(async () => {
    await world.stop();
    await t.close();
  });

  const signer = () => webBotAuthSigner(BASE, () => t.services.probeKey(), () => new Date(), UA);
  const scan = (label: string) => createScanner({ networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000, webBotAuth: signer() }).scan(world.domain(label));

  test('our signed probe passes the strict site on both networks, each with its own nonce, and the report says so', async () => {
    const before = world.webBotAuth.log.length;
    const { report, evidence } = await scan('wba-signed-only');
    const of = (k: string, n: string) => evidence.find((e) => e.key === k && e.network === n)!;
    const nonces: unknown[] = [];
    for (const n of ['networkA', 'networkB']) {
      assert.equal(of('wba:unsigned', n).outcome, 'challenge', n);
      assert.equal(of('wba:signed', n).outcome, 'pass', n);
      const sent = of('wba:signed', n).requestHeaders!;
      assert.equal(sent['signature-agent'], `sig1="${AGENT_URL}"`);
      assert.match(sent['signature-input']!, /^sig1=\("@authority" "signature-agent";key="sig1"\);created=\d+;keyid="[\w-]+";alg="ed25519";expires=\d+;nonce="[^"]+";tag="web-bot-auth"$/);
      assert.match(sent['signature-input']!, new RegExp(`keyid="${key.kid}"`));
      nonces.push(nonceOf(sent['signature-input']!));
    }
    assert.notEqual(nonces[0], nonces[1], 'the two networks never share a nonce');
    const verdicts = world.webBotAuth.log.slice(before).filter((v) => v.authority === 'wba-signed-only.world-fixtures.com' && v.outcome !== 'unsigned');
    assert.deepEqual(verdicts.map((v) => v.outcome), ['verified', 'verified'], JSON.stringify(verdicts));
    assert.deepEqual(new Set(verdicts.map((v) => v.nonce)), new Set(nonces));
    assert.ok(served.includes('/.well-known/http-message-signatures-directory'), 'the world fetched the service\'s own directory');
    assert.ok(report.reasons.some((r) => /networkA the edge answered agent-readiness's unsigned request with challenge and the same request signed with Web Bot Auth with pass/.test(r)), report.reasons.join('\n'));
    assert.ok(report.reasons.some((r) => /networkB the edge answered agent-readiness's unsigned request with challenge and the same request signed with Web Bot Auth with pass/.test(r)), report.reasons.join('\n'));
    const wba = report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth');
    assert.equal(wba?.status, 'pass', wba?.detail);
    assert.match(wba!.detail!, /served the signed request where it turned the unsigned one away \(networkA, networkB\)/);
  });

  test('a redirect to another authority is followed with a new signature made for that authority', async () => {
    const before = world.webBotAuth.log.length;
    const { evidence } = await scan('wba-hop');
    for (const n of ['networkA', 'networkB']) {
      const signed = evidence.find((e) => e.key === 'wba:signed' && e.network === n)!;
      assert.deepEqual([signed.outcome, signed.finalUrl], ['pass', SITE], n);
    }
    const verdicts = world.webBotAuth.log.slice(before).filter((v) => v.outcome !== 'unsigned');
    assert.deepEqual(verdicts.map((v) => [v.outcome, v.authority]), [['verified', 'wba-signed-only.world-fixtures.com'], ['verified', 'wba-signed-only.world-fixtures.com']]);
  });

  test('a signature made with a key the directory does not publish is not verified', async () => {
    const other = await loadProbeKey(JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })), undefined as never, new Date());
    const { evidence } = await createScanner({
      networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000,
      webBotAuth: webBotAuthSigner(BASE, async () => other, () => new Date(), UA),
    }).scan(world.domain('wba-signed-only'));
    assert.equal(evidence.find((e) => e.key === 'wba:signed' && e.network === 'networkA')!.outcome, 'challenge');
  });

  test('a signer that fails leaves the request unsent and unprobed, never a fault of the site', async () => {
    const failing = { ...signer(), sign: async () => { throw new Error('key store down'); } };
    const { report, evidence } = await createScanner({ networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000, webBotAuth: failing }).scan(world.domain('wba-signed-only'));
    for (const n of ['networkA', 'networkB']) {
      const signed = evidence.find((e) => e.key === 'wba:signed' && e.network === n)!;
      assert.deepEqual([signed.outcome, signed.errorCode], ['unprobed', 'SIGNING'], n);
    }
    assert.notEqual(report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth')?.status, 'fail');
    const noKey = { ...signer(), ready: async () => { throw new Error('no key'); } };
    const off = await createScanner({ networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000, webBotAuth: noKey }).scan(world.domain('open-basic'));
    assert.equal(off.evidence.filter((e) => e.key.startsWith('wba:')).length, 0, 'no key: no signed probe and no unsigned twin');
    assert.equal(off.report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth')?.status, 'inconclusive');
  });

  test('a site that treats both alike says so', async () => {
    const { report } = await scan('open-basic');
    assert.ok(report.reasons.some((r) => /treated alike signed with Web Bot Auth and unsigned on networkA \(pass\) and networkB \(pass\)/.test(r)), report.reasons.join('\n'));
    const wba = report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth');
    assert.equal(wba?.status, 'pass', wba?.detail);
  });

  describe('the strict site refuses each fault, one broken rule at a time', () => {
    let egress: { networkA: Egress; networkB: Egress };
    before(() => { egress = world.egress({}); });
    const send = async (headers: Record<string, string>, network: 'networkA' | 'networkB' = 'networkA', url = SITE) => {
      const r = await egress[network].fetch({ url, headers: { 'user-agent': UA, accept: 'text/html', ...headers }, timeoutMs: 5_000, maxBodyBytes: 65_536, maxRedirects: 0 });
      assert.ok(r.ok, JSON.stringify(r));
      return { status: r.status, verdict: r.headers['x-world-wba'] };
    };
    /** The real signing function, with the inputs of our probe unless a fault overrides one. */
    const sign = (fault: Partial<SignatureInput> = {}) => {
      const created = new Date();
      return webBotAuthHeaders({ url: SITE, key, agentUrl: signatureAgentUrl(BASE), created, expires: new Date(created.getTime() + VALIDITY_MS), nonce: newNonce(), ...fault });
    };
    const minutes = (m: number) => new Date(Date.now() + m * 60_000);

    const faults: Array<[fault: string, make: () => Promise<Record<string, string>>, status: number, verdict: string]> = [
      ['none: our probe as sent', () => sign(), 200, 'verified; reason=verified'],
      ['whole-field coverage of signature-agent', () => sign({ components: ['@authority', 'signature-agent'] }), 403, 'invalid; reason=whole-field-coverage'],
      ['a member that is our bare origin (draft -00\'s form; -01 fetches it as a key set)', () => sign({ agentUrl: BASE }), 403, 'unverified; reason=directory-not-a-jwk-set'],
      ['a member that is a path serving no key set', () => sign({ agentUrl: `${BASE}/keys` }), 403, 'unverified; reason=directory-not-200'],
      ['a member that is not https', () => sign({ agentUrl: AGENT_URL.replace('https:', 'http:') }), 403, 'invalid; reason=signature-agent-member-not-https'],
      ['a member with parameters', () => sign({ agentField: `sig1="${AGENT_URL}";type=directory` }), 403, 'unverified; reason=signature-agent-member-has-parameters'],
      ['a member that is a copy of our directory under another name', () => sign({ agentUrl: COPY_DIRECTORY }), 403, 'unverified; reason=directory-bad-signature'],
      ['a signature made for another authority', () => sign({ url: 'https://open-basic.world-fixtures.com/' }), 403, 'invalid; reason=bad-signature'],
      ['an expired signature', () => sign({ created: minutes(-10), expires: minutes(-5) }), 403, 'invalid; reason=expired'],
      ['a created in the future', () => sign({ created: minutes(10), expires: minutes(15) }), 403, 'invalid; reason=created-in-future'],
      ['a lifetime over 24 hours', () => sign({ created: new Date(), expires: minutes(25 * 60) }), 403, 'invalid; reason=lifetime-over-24h'],
    ];
    for (const [fault, make, status, verdict] of faults) {
      test(`fault: ${fault} → ${status} (${verdict})`, async () => {
        assert.deepEqual(await send(await make()), { status, verdict });
      });
    }

    test('fault: a reused nonce, even from the other network, is answered with 429', async () => {
      const headers = await sign();
      assert.deepEqual(await send(headers, 'networkA'), { status: 200, verdict: 'verified; reason=verified' });
      assert.deepEqual(await send(headers, 'networkB'), { status: 429, verdict: 'replayed; reason=nonce-reused' });
      assert.deepEqual(await send(headers, 'networkA'), { status: 429, verdict: 'replayed; reason=nonce-reused' });
    });
  });
});
