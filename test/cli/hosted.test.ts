// The real CLI process against the real service (a child process) and the test world,
// with the world's third proxy (source address 127.0.0.4) playing the caller's own network.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server as ProxyServer } from 'proxy-chain';
import { validateScanReport } from '../../generated/validators.js';
import { gridKeys } from '../../src/scanner/grid.ts';
import { startWorld, type World } from '../world/index.ts';
import { SCENARIOS } from '../world/scenarios/index.ts';
import type { Scenario } from '../world/site.ts';
import { cloudflare } from '../world/vendors.ts';
import { buildCli, freePort, runCli, startFixedApi, startFront, startServiceProcess, type Front, type ServiceProcess } from './harness.ts';

/** Cloudflare challenges agents from the two datacenter networks only; the caller's network gets the page. */
const CLOUD_ONLY: Scenario = {
  name: 'cli-cloud-only',
  about: 'Agents are challenged from the cloud networks, not from the user network.',
  presence: cloudflare.presence,
  edge: [{ who: 'agents', networks: ['networkA', 'networkB'], paths: ['/'], respond: cloudflare.challenge() }],
  expect: { headline: 'agent-hostile' },
};
const TUNNEL_HOST = 'quiet-fox.trycloudflare.com';
const LEAD = ['--name', 'Ada Lovelace', '--email', 'ada@world-fixtures.com'];

describe('agent-readiness CLI against the running service', () => {
  let cli: ReturnType<typeof buildCli>;
  let world: World;
  let service: ServiceProcess;
  let front: Front;
  let cliEnv: Record<string, string>;
  let serviceEnv: Record<string, string>;

  before(async () => {
    cli = buildCli();
    world = await startWorld({ scenarios: [...SCENARIOS, CLOUD_ONLY], extraResolve: '*.trycloudflare.com=11.22.33.10' });
    const resolve = world.resolve;
    serviceEnv = {
      NETWORK_A_PROXY: world.proxies.networkA, NETWORK_B_PROXY: world.proxies.networkB, SCAN_RESOLVE: resolve,
      NODE_EXTRA_CA_CERTS: world.caPath, RATE_LIMIT_PER_IP: '1000/60', EXCLUDED_DOMAINS: 'excluded.world-fixtures.com',
      PROBE_TIMEOUT_MS: '3000',
    };
    service = await startServiceProcess(serviceEnv);
    front = await startFront(service.url);
    // No SCAN_RESOLVE for the CLI: its process cannot resolve the world's names at all (a corporate
    // network without public DNS); only its proxy, 127.0.0.4, can, as with curl and npm.
    cliEnv = { AGENT_READINESS_API: front.url, HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath };
  });
  after(async () => {
    await front?.close();
    await service?.stop();
    await world?.stop();
    cli?.cleanup();
  });

  test('exit 0: the human report shows your network beside networkA/networkB, a plain sentence for the difference, the upload, and the link last', async () => {
    const userSeenBefore = world.proxyLogs.user.seen.length;
    const run = await runCli(cli.cli, ['scan', world.domain('cli-cloud-only'), ...LEAD], cliEnv);
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout;
    assert.match(out, /Headline: agent-hostile/);
    assert.match(out, /Score: \d+\/100/);
    assert.match(out, /agent\s+intent\s+robots\.txt\s+networkA\s+networkB\s+your network\s+verdict/);
    assert.match(out, /GPTBot\s+training\s+allowed\s+challenge\s+challenge\s+pass\s+denied/);
    assert.match(out, /your network passes where cloud networks are challenged/);
    assert.match(out, /Attached to the report as a self-reported vantage \(\d+ observations\)/);
    const lines = out.trimEnd().split('\n');
    const link = /^Report: (http:\/\/\S+\/r\/([0-9a-f-]{36}))$/.exec(lines.at(-1)!);
    assert.ok(link, `the report link is the last line:\n${out}`);
    assert.doesNotMatch(out, /\x1b\[/, 'no colour codes when stdout is not a terminal');
    assert.equal(run.stderr, '', 'no progress on a non-terminal stderr');
    // The probes really left through the user network's proxy (127.0.0.4), asked by name as curl does.
    assert.ok(world.proxyLogs.user.seen.slice(userSeenBefore).some((s) => s === `CONNECT ${world.domain('cli-cloud-only')}:443`));

    const page = await fetch(`${service.url}/r/${link[2]}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /self-reported by the command-line client/);
    assert.match(html, /Your network/);
  });

  test('behind a proxy with no local DNS for the site: CONNECT host:443 by name, the probes reach it and control:browser passes from your network', async () => {
    const domain = world.domain('open-basic');
    const userSeenBefore = world.proxyLogs.user.seen.length;
    const run = await runCli(cli.cli, ['scan', domain, ...LEAD, '--json', '--fresh'], cliEnv);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { userNetwork: { via: string; observations: Array<{ key: string; status: number; error?: string }>; outcomes: Record<string, string> } };
    const control = doc.userNetwork.observations.find((o) => o.key === 'control:browser');
    assert.deepEqual({ status: control?.status, error: control?.error }, { status: 200, error: undefined });
    assert.equal(doc.userNetwork.outcomes['control:browser'], 'pass');
    assert.match(doc.userNetwork.via, /^through http:\/\/127\.0\.0\.1:\d+$/);
    const asked = world.proxyLogs.user.seen.slice(userSeenBefore);
    assert.ok(asked.length > 0 && asked.every((s) => s === `CONNECT ${domain}:443`), `the proxy was asked by name only: ${asked.join(', ')}`);

    // The same run without the proxy: this process really cannot resolve the name, so every probe fails at DNS.
    const direct = await runCli(cli.cli, ['scan', domain, ...LEAD, '--json'], { ...cliEnv, HTTPS_PROXY: '' });
    assert.equal(direct.code, 0, direct.stderr);
    const d = JSON.parse(direct.stdout) as { userNetwork: { via: string; observations: Array<{ key: string; error?: string }> } };
    assert.equal(d.userNetwork.via, 'direct');
    assert.match(d.userNetwork.observations.find((o) => o.key === 'control:browser')?.error ?? '', /^(DNS_|TIMEOUT)/);
  });

  test('behind a proxy that wants credentials: with them in HTTPS_PROXY the probes go through; without them the report says the proxy asked (407) and how to give them', async () => {
    // proxy-chain plays the corporate proxy, in front of the world's user network.
    const asked: string[] = [];
    const corporate = new ProxyServer({
      port: 0, host: '127.0.0.1',
      prepareRequestFunction: ({ request, username, password }) => {
        asked.push(`${request.method} ${username}`);
        return username === 'ada@corp' && password === 'p:ss/w0rd' ? { upstreamProxyUrl: world.proxies.user } : { requestAuthentication: true };
      },
    });
    await corporate.listen();
    try {
      // Sites no other test scans, so the per-domain rate limit is not spent.
      const withCredentials = await runCli(cli.cli, ['scan', world.domain('applebot-follows-googlebot'), ...LEAD, '--json'], { ...cliEnv, HTTPS_PROXY: `http://ada%40corp:p%3Ass%2Fw0rd@127.0.0.1:${corporate.port}` });
      assert.equal(withCredentials.code, 0, withCredentials.stderr);
      const doc = JSON.parse(withCredentials.stdout) as { userNetwork: { via: string; outcomes: Record<string, string>; controlProblem?: string } };
      assert.equal(doc.userNetwork.outcomes['control:browser'], 'pass');
      assert.equal(doc.userNetwork.controlProblem, undefined);
      assert.equal(doc.userNetwork.via, `through http://127.0.0.1:${corporate.port}`, 'the credentials are never printed');
      assert.ok(asked.length > 0 && asked.every((a) => a === 'CONNECT ada@corp'), asked.join(', '));

      const without = await runCli(cli.cli, ['scan', world.domain('redirect-home'), ...LEAD], { ...cliEnv, HTTPS_PROXY: `http://127.0.0.1:${corporate.port}` });
      assert.equal(without.code, 0, without.stderr);
      assert.match(without.stdout, /Your proxy asked for credentials \(407\) and opened no tunnel to the site/);
      assert.match(without.stdout, /HTTPS_PROXY=http:\/\/user:password@host:port/);
    } finally {
      await corporate.close(true);
    }
  });

  test('--json prints one document: a schema-valid report, the grid from your network, the upload and the gate', async () => {
    const run = await runCli(cli.cli, ['scan', world.domain('open-basic'), ...LEAD, '--json', '--min-score', '0', '--profile', 'docs'], cliEnv);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as Record<string, any>;
    assert.ok(validateScanReport(doc.report), JSON.stringify(validateScanReport.errors));
    assert.equal(doc.report.domain, world.domain('open-basic'));
    assert.equal(doc.report.profile, 'docs', '--profile pins the rubric profile');
    assert.equal(doc.report.cliUploadToken, undefined, 'the upload credential never reaches the output');
    assert.deepEqual(doc.userNetwork.observations.map((o: { key: string }) => o.key), gridKeys(doc.report.versions.roster));
    assert.ok(doc.userNetwork.observations.every((o: { status: number }) => o.status === 200));
    assert.equal(doc.upload.status, 'attached');
    assert.equal(doc.upload.attached, gridKeys().length);
    assert.deepEqual({ result: doc.gate.result, exitCode: doc.exitCode }, { result: 'passed', exitCode: 0 });
  });

  test('exit 1: the gate fails below --min-score; a coalesced result says why it uploads nothing', async () => {
    const first = await runCli(cli.cli, ['scan', world.domain('robots-partial'), ...LEAD, '--json'], cliEnv);
    assert.equal(first.code, 0, first.stderr);
    const score = (JSON.parse(first.stdout) as { report: { score: { value: number } } }).report.score.value;
    assert.ok(score < 100, `robots-partial scores ${score}`);
    const uploadsBefore = front.log.filter((l) => l.endsWith('/cli-vantage')).length;
    const run = await runCli(cli.cli, ['scan', world.domain('robots-partial'), ...LEAD, '--min-score', String(score + 1)], cliEnv);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, new RegExp(`Gate: failed: score ${score} is below --min-score ${score + 1}`));
    assert.match(run.stdout, /Not uploaded: this result was shared from an identical scan/);
    assert.match(run.stderr, /not uploading your network's results: this result was shared/);
    assert.equal(front.log.filter((l) => l.endsWith('/cli-vantage')).length, uploadsBefore, 'nothing was uploaded');
  });

  test('a second upload for the same report gets 409 and is reported as a warning, exit 0', async () => {
    const replaying = await startFront(service.url);
    replaying.replayScans = true;
    try {
      const env = { ...cliEnv, AGENT_READINESS_API: replaying.url };
      const first = await runCli(cli.cli, ['scan', world.domain('robots-404'), ...LEAD, '--json'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.equal((JSON.parse(first.stdout) as { upload: { status: string } }).upload.status, 'attached');
      const second = await runCli(cli.cli, ['scan', world.domain('robots-404'), ...LEAD, '--json'], env);
      assert.equal(second.code, 0, second.stderr);
      const doc = JSON.parse(second.stdout) as { upload: { status: string; httpStatus: number; reason: string } };
      assert.deepEqual([doc.upload.status, doc.upload.httpStatus], ['failed', 409]);
      assert.match(second.stderr, /warning: your network's results were not attached: a user-network vantage is already attached/);
      assert.equal(replaying.log.filter((l) => l.endsWith('/cli-vantage')).length, 2);
    } finally {
      await replaying.close();
    }
  });

  test('an ephemeral tunnel host: the CLI says why and uploads nothing', async () => {
    const before = front.log.length;
    const run = await runCli(cli.cli, ['scan', TUNNEL_HOST, ...LEAD, '--json'], cliEnv);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { report: { ephemeral?: boolean; reportUrl?: string }; upload: { status: string; reason: string } };
    assert.equal(doc.report.ephemeral, true);
    assert.equal(doc.report.reportUrl, undefined);
    assert.equal(doc.upload.status, 'not-uploaded');
    assert.match(doc.upload.reason, /temporary tunnel host/);
    assert.ok(!front.log.slice(before).some((l) => l.includes('/cli-vantage')));
  });

  test('an unarchived report (no token, no permalink): the CLI still probes, says why, and uploads nothing', async () => {
    const real = await runCli(cli.cli, ['scan', world.domain('robots-5xx'), ...LEAD, '--json'], cliEnv);
    assert.equal(real.code, 0, real.stderr);
    const { reportUrl: _gone, ...unarchived } = (JSON.parse(real.stdout) as { report: Record<string, unknown> }).report;
    const api = await startFixedApi(200, unarchived);
    try {
      const run = await runCli(cli.cli, ['scan', world.domain('robots-5xx'), ...LEAD], { ...cliEnv, AGENT_READINESS_API: api.url });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /your network/);
      assert.match(run.stdout, /Not uploaded: the report could not be archived/);
      assert.match(run.stdout.trimEnd().split('\n').at(-1)!, /^Report: no permalink \(the report was not archived\)\.$/);
      assert.deepEqual(api.hits.filter((h) => h.includes('/cli-vantage')), []);
    } finally {
      await api.close();
    }
  });

  test('exit 2: headline unknown under --min-score is "could not test" (without the gate the scan still completes with 0)', async () => {
    const gated = await runCli(cli.cli, ['scan', world.domain('origin-503'), ...LEAD, '--min-score', '10', '--fresh'], cliEnv);
    assert.equal(gated.code, 2, gated.stderr);
    assert.match(gated.stderr, /could not test: the scan could not measure the site \(headline unknown\)/);
    const plain = await runCli(cli.cli, ['scan', world.domain('origin-503'), ...LEAD], cliEnv);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /Headline: unknown/);
    const down = await runCli(cli.cli, ['scan', world.domain('down'), ...LEAD, '--min-score', '10'], cliEnv);
    assert.equal(down.code, 2, down.stderr);
    assert.match(down.stdout, /Score: no score, not enough signal \(0 checks decided, at least \d+ needed\)/);
    assert.match(down.stdout, /Gate: could not judge: /);
  });

  test('exit 2: a 400 (unreadable domain) and a 403 (excluded domain) from the hosted scan', async () => {
    const bad = await runCli(cli.cli, ['scan', 'not a domain', ...LEAD], cliEnv);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /could not test: the API refused the scan \(HTTP 400\)/);
    assert.equal(bad.stdout, '');
    const excluded = await runCli(cli.cli, ['scan', 'excluded.world-fixtures.com', ...LEAD, '--json'], cliEnv);
    assert.equal(excluded.code, 2);
    const doc = JSON.parse(excluded.stdout) as { report: null; error: { status: number; message: string; body: { error: string } }; exitCode: number };
    assert.deepEqual([doc.report, doc.error.status, doc.exitCode], [null, 403, 2]);
    assert.match(doc.error.message, /HTTP 403/);
    assert.equal(typeof doc.error.body.error, 'string', 'the API\'s own Error object is passed on');
  });

  test('exit 2: a 429 prints the wait', async () => {
    const strict = await startServiceProcess({ ...serviceEnv, RATE_LIMIT_PER_DOMAIN: '1/3600' });
    try {
      const env = { ...cliEnv, AGENT_READINESS_API: strict.url };
      const first = await runCli(cli.cli, ['scan', world.domain('robots-html'), ...LEAD, '--json'], env);
      assert.equal(first.code, 0, first.stderr);
      const limited = await runCli(cli.cli, ['scan', world.domain('robots-html'), ...LEAD, '--fresh'], env);
      assert.equal(limited.code, 2);
      assert.match(limited.stderr, /could not test: rate limited \(HTTP 429\): .*\. Wait about \d+ (min|h) \(Retry-After: \d+ s\) before scanning again\./);
    } finally {
      await strict.stop();
    }
  });

  test('exit 2: a 502 from the hosted scan carries its detail', async () => {
    const api = await startFixedApi(502, { error: 'The scan could not complete.', detail: 'deadline passed' });
    try {
      const run = await runCli(cli.cli, ['scan', 'example.org', ...LEAD], { ...cliEnv, AGENT_READINESS_API: api.url });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /could not test: the API refused the scan \(HTTP 502\): The scan could not complete\. — deadline passed/);
    } finally {
      await api.close();
    }
  });

  test('exit 2: a 200 that is not a ScanReport is refused by the generated validator', async () => {
    const api = await startFixedApi(200, { hello: 'not a report' });
    try {
      const run = await runCli(cli.cli, ['scan', 'example.org', ...LEAD], { ...cliEnv, AGENT_READINESS_API: api.url });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /answered with a report this CLI does not understand/);
      assert.ok(!api.hits.some((h) => h.includes('/cli-vantage')), 'nothing is uploaded for a report that failed validation');
    } finally {
      await api.close();
    }
  });

  test('calls to the API go through HTTP_PROXY unless NO_PROXY names the API host', async () => {
    const api = await startFixedApi(502, { error: 'The scan could not complete.' });
    const seen: string[] = [];
    const proxy = new ProxyServer({ port: 0, host: '127.0.0.1', prepareRequestFunction: ({ request }) => (seen.push(`${request.method} ${request.url}`), {}) });
    await proxy.listen();
    try {
      const env = { AGENT_READINESS_API: api.url, HTTP_PROXY: `http://127.0.0.1:${proxy.port}` };
      const proxied = await runCli(cli.cli, ['scan', 'example.org', ...LEAD], env);
      assert.equal(proxied.code, 2);
      assert.ok(seen.includes(`POST ${api.url}/scan`), `the proxy saw ${seen.join(', ')}`);
      const before = seen.length;
      const direct = await runCli(cli.cli, ['scan', 'example.org', ...LEAD], { ...env, NO_PROXY: '127.0.0.1' });
      assert.equal(direct.code, 2);
      assert.equal(seen.length, before, 'NO_PROXY bypasses the proxy');
      assert.equal(api.hits.filter((h) => h === 'POST /scan').length, 2);
    } finally {
      await proxy.close(true);
      await api.close();
    }
  });

  test('exit 2: an unreachable API gives a clear message naming the address', async () => {
    const port = await freePort();
    const run = await runCli(cli.cli, ['scan', world.domain('open-basic'), ...LEAD, '--api', `http://127.0.0.1:${port}`], cliEnv);
    assert.equal(run.code, 2);
    assert.match(run.stderr, new RegExp(`could not test: could not reach the API at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.equal(run.stdout, '');
  });
});
