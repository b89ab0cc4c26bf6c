// Signed probes as ourselves: beside an unsigned request, each network sends one home-page
// request signed with Web Bot Auth as agent-readiness. The world verifies the signature with
// the key directory the service publishes (fetched from Signature-Agent), and the report says
// when the edge treats signed traffic differently, with the signed outcome in the evidence.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScanner } from '../../src/scanner/engine.ts';
import { KEY_DIRECTORY_MEDIA_TYPE, KEY_DIRECTORY_PATH, keyDirectory, loadProbeKey, type ProbeKey } from '../../src/signing/keys.ts';
import { webBotAuthSigner } from '../../src/signing/web-bot-auth.ts';
import { startWorld, type World } from '../world/index.ts';

describe('Web Bot Auth probes as agent-readiness', () => {
  let world: World;
  let directory: http.Server;
  let baseUrl = '';
  let key: ProbeKey;
  const fetchedDirectory: string[] = [];

  before(async () => {
    world = await startWorld();
    const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    key = await loadProbeKey(JSON.stringify(jwk), undefined as never, new Date());
    // Stands in for the service's /.well-known/http-message-signatures-directory (same document function).
    directory = http.createServer((req, res) => {
      fetchedDirectory.push(req.url ?? '');
      if (req.url !== KEY_DIRECTORY_PATH) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': KEY_DIRECTORY_MEDIA_TYPE }).end(JSON.stringify(keyDirectory(key)));
    });
    await new Promise<void>((r) => directory.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
  });
  after(async () => {
    directory.closeAllConnections();
    await new Promise((r) => directory.close(r));
    await world.stop();
  });

  const scan = (name: string) => createScanner({
    networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000,
    webBotAuth: webBotAuthSigner(baseUrl, async () => key, () => new Date(), `agent-readiness/1.0 (+${baseUrl}/methodology.md)`),
  }).scan(world.domain(name));

  test('a site that challenges unsigned agents but lets the verified signed request through is reported as such', async () => {
    const { report, evidence } = await scan('wba-signed-only');
    const of = (k: string, n: string) => evidence.find((e) => e.key === k && e.network === n)!;
    for (const n of ['networkA', 'networkB']) {
      assert.equal(of('wba:unsigned', n).outcome, 'challenge', n);
      assert.equal(of('wba:signed', n).outcome, 'pass', n);
      assert.match(of('wba:signed', n).requestHeaders!['signature-input']!, /tag="web-bot-auth"/);
      assert.match(of('wba:signed', n).requestHeaders!['signature-input']!, new RegExp(`keyid="${key.kid}"`));
      assert.equal(of('wba:signed', n).requestHeaders!['signature-agent'], `sig1="${baseUrl}${KEY_DIRECTORY_PATH}"`);
    }
    assert.ok(report.reasons.some((r) => /networkA the edge answered agent-readiness's unsigned request with challenge and the same request signed with Web Bot Auth with pass/.test(r)), report.reasons.join('\n'));
    assert.ok(fetchedDirectory.includes(KEY_DIRECTORY_PATH), 'the world fetched the published key directory to verify');
    const wba = report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth');
    assert.equal(wba?.status, 'pass', wba?.detail);
    assert.match(wba!.detail!, /served the signed request where it turned the unsigned one away/);
  });

  test('a signature made with another key is not verified by the world', async () => {
    const other = await loadProbeKey(JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })), undefined as never, new Date());
    const { evidence } = await createScanner({
      networks: world.egress({}), deadlineMs: 20_000, probeTimeoutMs: 5_000,
      webBotAuth: webBotAuthSigner(baseUrl, async () => other, () => new Date(), `agent-readiness/1.0 (+${baseUrl}/methodology.md)`),
    }).scan(world.domain('wba-signed-only'));
    assert.equal(evidence.find((e) => e.key === 'wba:signed' && e.network === 'networkA')!.outcome, 'challenge');
  });

  test('a site that treats both alike says so', async () => {
    const { report } = await scan('open-basic');
    assert.ok(report.reasons.some((r) => /treated alike signed with Web Bot Auth and unsigned on networkA \(pass\) and networkB \(pass\)/.test(r)), report.reasons.join('\n'));
    const wba = report.preview?.checks.find((c) => c.id === 'trust.web-bot-auth');
    assert.equal(wba?.status, 'pass', wba?.detail);
    assert.match(wba!.detail!, /signed and unsigned requests were both served/);
  });
});
