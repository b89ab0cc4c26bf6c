// `agent-readiness diff` from the real bundle against the real service (a child process) and
// the test world: two scans of a site whose edge starts blocking GPTBot between them, printed in
// every --format through the generated client; and every way it cannot compare (exit 2).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateReportDiff } from '../../generated/validators.js';
import { startWorld, type World } from '../world/index.ts';
import { BLOCK_GPTBOT } from '../world/scenarios/watches.ts';
import { buildCli, runCli, startFront, startServiceProcess, type Front, type ServiceProcess } from './harness.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@world-fixtures.com' };

describe('agent-readiness diff', () => {
  let cli: ReturnType<typeof buildCli>;
  let world: World;
  let service: ServiceProcess;
  let front: Front;
  let env: Record<string, string>;
  let ids: { first: string; second: string; other: string };
  before(async () => {
    cli = buildCli();
    world = await startWorld();
    service = await startServiceProcess({
      NETWORK_A_PROXY: world.proxies.networkA, NETWORK_B_PROXY: world.proxies.networkB, SCAN_RESOLVE: world.resolve,
      NODE_EXTRA_CA_CERTS: world.caPath, RATE_LIMIT_PER_IP: '1000/60', PROBE_TIMEOUT_MS: '3000',
    });
    front = await startFront(service.url);
    env = { AGENT_READINESS_API: front.url };
    const scan = async (label: string) => {
      const res = await fetch(`${service.url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: world.domain(label), lead, fresh: true }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { scanId: string }).scanId;
    };
    const first = await scan('watched-shop');
    world.update('watched-shop', { edge: BLOCK_GPTBOT, robots: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' });
    const second = await scan('watched-shop');
    world.reset('watched-shop');
    ids = { first, second, other: await scan('open-basic') };
  });
  after(async () => {
    await front?.close();
    await service?.stop();
    await world?.stop();
    cli?.cleanup();
  });

  test('text: the headline, the GPTBot cells marked as regressions, robots.txt line by line, the link', async () => {
    const run = await runCli(cli.cli, ['diff', ids.first, ids.second], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^agent-readiness diff: watched-shop\.world-fixtures\.com\n/);
    assert.match(run.stdout, /Headline: open → (partially-blocked|agent-hostile)\n/);
    assert.match(run.stdout, /✕ GPTBot on network A: robots\.txt allowed → blocked, edge pass → block\n/);
    assert.match(run.stdout, /✕ GPTBot on network B: robots\.txt allowed → blocked, edge pass → block\n/);
    assert.match(run.stdout, /\n {4}\+User-agent: GPTBot\n {4}\+Disallow: \/\n/);
    assert.ok(run.stdout.includes(`Comparison: ${service.url}/r/${ids.first}/diff/${ids.second}`));
    assert.ok(front.log.includes(`GET /r/${ids.first}/diff/${ids.second}?format=json`), front.log.join('\n'));
  });

  test('json: one document whose diff is the API\'s ReportDiff', async () => {
    const run = await runCli(cli.cli, ['diff', ids.first, ids.second, '--format', 'json'], env);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { diff: unknown; exitCode: number };
    assert.ok(validateReportDiff(doc.diff));
    assert.equal(doc.exitCode, 0);
  });

  test('markdown: tables and a diff fence; junit: the GPTBot cells as failures', async () => {
    const md = await runCli(cli.cli, ['diff', `${service.url}/r/${ids.first}`, ids.second, '--format', 'markdown'], env);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /^### agent-readiness diff: watched\\-shop\\.world\\-fixtures\\.com\n/);
    assert.match(md.stdout, /\| GPTBot \| network A \| allowed → blocked \| ❌ pass → block \|/);
    assert.match(md.stdout, /```diff\n--- robots\.txt/);
    const junit = await runCli(cli.cli, ['diff', ids.first, ids.second, '--format', 'junit'], env);
    assert.equal(junit.code, 0, junit.stderr);
    assert.match(junit.stdout, /<testcase classname="agent-readiness\.diff\.agents" name="GPTBot networkA">\n {6}<failure message="GPTBot on network A: robots\.txt allowed → blocked, edge pass → block">/);
    assert.match(junit.stdout, /failures="2"/);
  });

  test('the same report twice: nothing changed', async () => {
    const run = await runCli(cli.cli, ['diff', ids.first, ids.first], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Nothing changed between these two scans\./);
  });

  test('exit 2: two domains, an unknown id, a malformed id, no API', async () => {
    const domains = await runCli(cli.cli, ['diff', ids.first, ids.other, '--json'], env);
    assert.equal(domains.code, 2);
    assert.match(domains.stderr, /could not compare: the API could not compare the reports \(HTTP 400\): The two reports are of different domains/);
    assert.equal((JSON.parse(domains.stdout) as { diff: null }).diff, null);
    const unknown = await runCli(cli.cli, ['diff', ids.first, '00000000-0000-4000-8000-000000000000'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /HTTP 404/);
    const malformed = await runCli(cli.cli, ['diff', ids.first, 'abc'], env);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /"abc" is not a report id/);
    const noApi = await runCli(cli.cli, ['diff', ids.first, ids.second], {});
    assert.equal(noApi.code, 2);
    assert.match(noApi.stderr, /diff needs the API address/);
    const stray = await runCli(cli.cli, ['diff', ids.first, ids.second, '--min-score', '5'], env);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--min-score does not apply to diff/);
  });
});
