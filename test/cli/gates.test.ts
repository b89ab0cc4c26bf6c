// The per-check CI gates end to end: the real CLI bundle against the real service and the
// test world. One table of runs (assert, baseline regression, improvement, stale baseline,
// unknown id, no API) with the exit code each must give, plus the Markdown and JUnit outputs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWorld, type World } from '../world/index.ts';
import { buildCli, runCli, startFront, startServiceProcess, type Front, type ServiceProcess } from './harness.ts';

const LEAD = ['--name', 'Ada Lovelace', '--email', 'ada@world-fixtures.com'];

describe('agent-readiness CLI gates per check against the running service', () => {
  let cli: ReturnType<typeof buildCli>;
  let world: World;
  let service: ServiceProcess;
  let front: Front;
  let env: Record<string, string>;
  let dir: string;
  let ids: string[];
  let rubricVersion: string;
  let domain: string;

  before(async () => {
    cli = buildCli();
    world = await startWorld();
    service = await startServiceProcess({
      NETWORK_A_PROXY: world.proxies.networkA, NETWORK_B_PROXY: world.proxies.networkB, SCAN_RESOLVE: world.resolve,
      NODE_EXTRA_CA_CERTS: world.caPath, RATE_LIMIT_PER_IP: '1000/60', RATE_LIMIT_PER_DOMAIN: '1000/1', PROBE_TIMEOUT_MS: '3000',
    });
    front = await startFront(service.url);
    env = { AGENT_READINESS_API: front.url, HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-cli-gates-'));
    const catalog = (await (await fetch(`${service.url}/api/checks`)).json()) as { rubricVersion: string; checks: Array<{ id: string }> };
    ids = catalog.checks.map((c) => c.id);
    rubricVersion = catalog.rubricVersion;
    domain = world.domain('robots-partial');
  });
  after(async () => {
    await front?.close();
    await service?.stop();
    await world?.stop();
    cli?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a table of runs gives the documented exit codes: assert, regression, improvement, stale baseline, unknown id, no API', async () => {
    const base = path.join(dir, 'baseline.json');
    const written = await runCli(cli.cli, ['scan', domain, ...LEAD, '--baseline', base, '--write-baseline', '--json'], env);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stderr, /baseline written to/);
    const baseline = JSON.parse(fs.readFileSync(base, 'utf8')) as { rubricVersion: string; domain: string; checks: Record<string, string> };
    assert.equal(baseline.rubricVersion, rubricVersion);
    const passing = Object.keys(baseline.checks).filter((id) => baseline.checks[id] === 'pass');
    const failing = Object.keys(baseline.checks).filter((id) => baseline.checks[id] === 'fail');
    assert.ok(passing.length >= 2 && failing.length >= 2, `robots-partial needs passing and failing checks: ${JSON.stringify(baseline.checks)}`);

    const variant = (name: string, change: (b: typeof baseline) => void) => {
      const b = structuredClone(baseline);
      change(b);
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify(b));
      return file;
    };
    const regressed = variant('regressed', (b) => { b.checks[failing[0]!] = 'pass'; b.checks[failing[1]!] = 'pass'; });
    const improved = variant('improved', (b) => { b.checks[passing[0]!] = 'fail'; });
    const otherRubric = variant('other-rubric', (b) => { b.rubricVersion = 'rubric-v0.1'; });
    const otherSite = variant('other-site', (b) => { b.domain = world.domain('open-basic'); });
    // The same measurements, as if written for the site that is now down: what it decided must be decided again.
    const down = world.domain('down');
    const downBaseline = variant('down-site', (b) => { b.domain = down; });
    const notWritten = path.join(dir, 'not-written.json');
    const goneId = variant('gone-id', (b) => { b.checks['access.retired-check'] = 'pass'; });

    const rows: Array<{ run: string; target?: string; args: string[]; env?: Record<string, string>; code: number; stderr?: RegExp; scans?: boolean }> = [
      { run: 'assert a passing check', args: ['--assert', passing[0]!], code: 0 },
      { run: 'assert a failing check (error, the default)', args: ['--assert', passing[0]!, '--assert', failing[0]!], code: 1, stderr: new RegExp(`assertion failed: ${failing[0]!.replace(/\./g, '\\.')} fails`) },
      { run: 'assert a failing check at warn', args: ['--assert', `${failing[0]!}=warn`], code: 0, stderr: /warning: .* fails \(--assert …=warn, not gating\)/ },
      { run: 'the baseline unchanged', args: ['--baseline', base], code: 0 },
      { run: 'baseline regression', args: ['--baseline', regressed], code: 1, stderr: new RegExp(`regression: ${failing[0]!.replace(/\./g, '\\.')} passed in the baseline and now fails[\\s\\S]*regression: ${failing[1]!.replace(/\./g, '\\.')}`) },
      { run: 'baseline improvement', args: ['--baseline', improved], code: 0, stderr: new RegExp(`improvement: ${passing[0]!.replace(/\./g, '\\.')} failed in the baseline and now passes`) },
      { run: 'a baseline of another rubric: rubric changed, nothing compared', args: ['--baseline', otherRubric], code: 2, stderr: new RegExp(`rubric changed: the baseline .*other-rubric\\.json was written under rubric-v0\\.1 and this scan was scored with ${rubricVersion.replace(/\./g, '\\.')}, so no check is compared \\(neither a regression nor an improvement\\)`) },
      { run: 'stale baseline: an id that no longer exists', args: ['--baseline', goneId], code: 2, stderr: /stale: check id access\.retired-check no longer exists/, scans: false },
      { run: 'missing baseline file', args: ['--baseline', path.join(dir, 'absent.json')], code: 2, stderr: /does not exist; write one with --baseline .* --write-baseline/, scans: false },
      { run: 'unknown assert id', args: ['--assert', 'access.no-such-check'], code: 2, stderr: new RegExp(`unknown check id for --assert: access\\.no-such-check\\. Valid ids \\(${rubricVersion.replace(/\./g, '\\.')}\\): ${ids.map((i) => i.replace(/\./g, '\\.')).join(', ')}`), scans: false },
      { run: 'no API configured', args: [], env: { AGENT_READINESS_API: '' }, code: 2, stderr: /needs the API address: pass --api <URL> or set AGENT_READINESS_API/, scans: false },
      { run: 'a baseline written for another domain', args: ['--baseline', otherSite], code: 2, stderr: new RegExp(`the baseline .*other-site\\.json was written for ${world.domain('open-basic').replace(/\./g, '\\.')}, not ${domain.replace(/\./g, '\\.')}`), scans: false },
      { run: 'the same site typed as a pasted URL keeps its baseline', target: `https://www.${domain}/pricing`, args: ['--baseline', base], code: 0 },
      { run: 'an unreachable site asserted (the acceptance line)', target: down, args: ['--assert', 'access.user-agents=error'], code: 2, stderr: /could not test: --assert access\.user-agents: the scan could not decide this check \((inconclusive|error|skipped)/ },
      { run: 'an unreachable site asserted at warn only warns', target: down, args: ['--assert', 'access.user-agents=warn'], code: 0, stderr: /warning: --assert access\.user-agents=warn: the scan could not decide this check .*; not gating/ },
      { run: 'an unreachable site against a baseline that measured it', target: down, args: ['--baseline', downBaseline], code: 2, stderr: new RegExp(`could not test: baseline ${passing[0]!.replace(/\./g, '\\.')}: it was pass in the baseline and this scan could not decide it`) },
      { run: 'no baseline is written from an unreachable site', target: down, args: ['--baseline', notWritten, '--write-baseline'], code: 2, stderr: /could not test: not writing a baseline: the scan decided \d+ checks?, fewer than the \d+ the rubric needs/ },
    ];
    const results: string[] = [];
    for (const row of rows) {
      const scansBefore = front.log.filter((l) => l === 'POST /scan').length;
      const run = await runCli(cli.cli, ['scan', row.target ?? domain, ...LEAD, ...row.args], { ...env, ...row.env });
      results.push(`${row.run}: ${run.code}`);
      assert.equal(run.code, row.code, `${row.run}\n${run.stderr}`);
      if (row.stderr) assert.match(run.stderr, row.stderr, row.run);
      // The text report names the same gates, before the report link.
      if (row.code === 1 && row.args[0] === '--baseline') assert.match(run.stdout, /Check gates:\n {2}baseline .*: 2 regression\(s\), 0 improvement\(s\)\n {4}regression: /);
      // Refusals that can be known before scanning are made before scanning.
      if (row.scans === false) assert.equal(front.log.filter((l) => l === 'POST /scan').length, scansBefore, `${row.run}: no scan was requested`);
    }
    assert.equal(results.length, rows.length);
    assert.equal(fs.existsSync(notWritten), false, 'the refused baseline was not written');
  });

  test('a baseline written under rubric-v1.1 and compared under rubric-v1.2 says "rubric changed", never a regression or an improvement; --rubric compares it, --write-baseline refreshes it', async () => {
    const v11 = path.join(dir, 'v11.json');
    const scan = (...args: string[]) => runCli(cli.cli, ['scan', domain, ...LEAD, ...args], env);
    const written = await scan('--rubric', 'rubric-v1.1', '--baseline', v11, '--write-baseline');
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stderr, /baseline written to .*v11\.json \(30 checks, rubric-v1\.1\)/);
    const doc = JSON.parse(fs.readFileSync(v11, 'utf8')) as { rubricVersion: string; checks: Record<string, string> };
    assert.equal(doc.rubricVersion, 'rubric-v1.1');
    // Even a baseline whose checks would all be regressions under one rubric is not compared across two.
    const regressed = path.join(dir, 'v11-regressed.json');
    fs.writeFileSync(regressed, JSON.stringify({ ...doc, checks: Object.fromEntries(Object.keys(doc.checks).map((id) => [id, 'pass'])) }));
    for (const file of [v11, regressed]) {
      const run = await scan('--baseline', file, '--format', 'json');
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /could not test: rubric changed: the baseline .* was written under rubric-v1\.1 and this scan was scored with rubric-v1\.2/);
      assert.doesNotMatch(run.stderr, /regression:|improvement:/);
      const out = JSON.parse(run.stdout) as { report: { score: { rubricVersion: string } }; baseline: { regressions: string[]; improvements: string[]; rubricChanged: unknown } };
      assert.equal(out.report.score.rubricVersion, 'rubric-v1.2');
      assert.deepEqual([out.baseline.regressions, out.baseline.improvements, out.baseline.rubricChanged], [[], [], { baseline: 'rubric-v1.1', scan: 'rubric-v1.2' }]);
    }
    const text = await scan('--baseline', v11);
    assert.match(text.stdout, /baseline .*v11\.json: rubric changed \(written under rubric-v1\.1, scored with rubric-v1\.2\): nothing compared/);
    const pinned = await scan('--rubric', 'rubric-v1.1', '--baseline', v11);
    assert.equal(pinned.code, 0, `scanned with the baseline's rubric, it compares\n${pinned.stderr}`);
    const refreshed = await scan('--baseline', v11, '--write-baseline');
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal((JSON.parse(fs.readFileSync(v11, 'utf8')) as { rubricVersion: string }).rubricVersion, 'rubric-v1.2');
    const after = await scan('--baseline', v11);
    assert.equal(after.code, 0, after.stderr);
    const usage = await scan('--rubric', 'rubric-v1.3-preview');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--rubric must be one of rubric-v1\.2, rubric-v1\.1, not "rubric-v1\.3-preview"/);
  });

  test('--json carries the assertions, the baseline comparison and the combined exit code', async () => {
    const base = path.join(dir, 'json-base.json');
    assert.equal((await runCli(cli.cli, ['scan', domain, ...LEAD, '--baseline', base, '--write-baseline'], env)).code, 0);
    const b = JSON.parse(fs.readFileSync(base, 'utf8')) as { checks: Record<string, string> };
    const failing = Object.keys(b.checks).find((id) => b.checks[id] === 'fail')!;
    const run = await runCli(cli.cli, ['scan', domain, ...LEAD, '--format', 'json', '--baseline', base, '--assert', failing, '--min-score', '0'], env);
    assert.equal(run.code, 1, run.stderr);
    const doc = JSON.parse(run.stdout) as { assertions: Array<{ id: string; failed: boolean }>; baseline: { regressions: string[] }; gate: { result: string }; exitCode: number };
    assert.deepEqual(doc.assertions.map((a) => [a.id, a.failed]), [[failing, true]]);
    assert.deepEqual(doc.baseline.regressions, []);
    assert.equal(doc.gate.result, 'passed');
    assert.equal(doc.exitCode, 1);
  });

  test('--format markdown prints a table row per check and appends it to GITHUB_STEP_SUMMARY; junit has one testcase per check', async () => {
    const summary = path.join(dir, 'step-summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const md = await runCli(cli.cli, ['scan', domain, ...LEAD, '--format', 'markdown'], { ...env, GITHUB_STEP_SUMMARY: summary });
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, new RegExp(`^### agent-readiness: ${domain.replace(/[.-]/g, '\\\\\\$&')}\n`));
    for (const id of ids) assert.match(md.stdout, new RegExp(`\\| \`${id.replace(/\./g, '\\.')}\` \\|`));
    const appended = fs.readFileSync(summary, 'utf8');
    assert.ok(appended.startsWith('# earlier step\n### agent-readiness:'), 'appended, not overwritten');

    const junit = await runCli(cli.cli, ['scan', domain, ...LEAD, '--format', 'junit'], env);
    assert.equal(junit.code, 0, junit.stderr);
    assert.match(junit.stdout, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="agent-readiness"/);
    assert.equal(junit.stdout.match(/<testcase /g)?.length, ids.length);
    assert.match(junit.stdout, /<failure message=/);
  });
});
