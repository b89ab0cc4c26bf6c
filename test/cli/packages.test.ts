// `npm run pack` end to end: both tarballs installed into a fresh project the way a user
// would (offline, from the npm cache), the CLI bin run (--version and a hosted scan of the
// test world), and a strict TypeScript consumer of the typed client compiled and run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeHTML } from 'entities';
import { startWorld, type World } from '../world/index.ts';
import { OPERATOR_TOKEN, operatorKey, runCli, startFixedApi, startServiceProcess, type ServiceProcess } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../..');
const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function freshProject(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true, type: 'module' }));
  return dir;
}

describe('the publishable packages (npm run pack)', () => {
  let dir: string;
  let tarballs: { cli: string; client: string };
  let world: World;
  let service: ServiceProcess;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-packages-'));
    execFileSync(process.execPath, [path.join(root, 'scripts/pack.ts'), '--out', path.join(dir, 'tgz')], { stdio: 'pipe' });
    tarballs = {
      cli: path.join(dir, 'tgz', `agent-readiness-${rootPkg.version}.tgz`),
      client: path.join(dir, 'tgz', `agent-readiness-client-${rootPkg.version}.tgz`),
    };
    world = await startWorld();
    service = await startServiceProcess({
      NETWORK_A_PROXY: world.proxies.networkA, NETWORK_B_PROXY: world.proxies.networkB, SCAN_RESOLVE: world.resolve,
      NODE_EXTRA_CA_CERTS: world.caPath, RATE_LIMIT_PER_IP: '1000/60', PROBE_TIMEOUT_MS: '3000',
      OPERATOR_TOKEN, FLEET_PER_ADDRESS_CONCURRENCY: '4',
    });
  });
  after(async () => {
    await service?.stop();
    await world?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the service package is private and renamed, and keeps the bin so npx agent-readiness runs the CLI in a checkout', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; private: boolean; bin: Record<string, string> };
    assert.deepEqual([pkg.name, pkg.private, pkg.bin], ['agent-readiness-service', true, { 'agent-readiness': 'dist/cli.mjs' }]);
  });

  test('a CLI packed with --api-default uses that API when neither --api nor AGENT_READINESS_API is given, and its help says so', async () => {
    const api = await startFixedApi(502, { error: 'The scan could not complete.' });
    try {
      const out = path.join(dir, 'with-default');
      execFileSync(process.execPath, [path.join(root, 'scripts/pack.ts'), '--out', out, '--api-default', api.url], { stdio: 'pipe' });
      const unpacked = path.join(out, 'x');
      fs.mkdirSync(unpacked);
      execFileSync('tar', ['-xzf', path.join(out, `agent-readiness-${rootPkg.version}.tgz`), '-C', unpacked]);
      const cli = path.join(unpacked, 'package/cli.mjs');
      const help = await runCli(cli, ['--help']);
      assert.match(help.stdout, new RegExp(`else \\$AGENT_READINESS_API, else ${api.url.replace(/\./g, '\\.')}`));
      const run = await runCli(cli, ['scan', 'example.org', '--name', 'Ada', '--email', 'ada@example.org']);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /the API refused the scan \(HTTP 502\)/);
      assert.ok(api.hits.includes('POST /scan'), api.hits.join(', '));
    } finally {
      await api.close();
    }
  });

  test('the CLI tarball holds the bundle and README only, at most 3 MB unpacked, with no dependencies', () => {
    const listing = execFileSync('tar', ['-tzf', tarballs.cli], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(listing.every((f) => /^package\/(cli\.mjs|cli-chunks\/[^/]+\.mjs|README\.md|package\.json)$/.test(f)), listing.join('\n'));
    const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarballs.cli, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
    assert.equal(pkg.name, 'agent-readiness');
    assert.equal(pkg.dependencies, undefined);
    assert.deepEqual(pkg.engines, { node: '>=22.19.0' });
    const unpacked = path.join(dir, 'unpacked');
    fs.mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarballs.cli, '-C', unpacked]);
    // The private service package's metadata (its name, its dependency list) stays out of the bundle.
    assert.doesNotMatch(fs.readFileSync(path.join(unpacked, 'package/cli.mjs'), 'utf8'), /agent-readiness-service/);
    const size = execFileSync('du', ['-sb', path.join(unpacked, 'package')], { encoding: 'utf8' }).split('\t')[0];
    assert.ok(Number(size) <= 3 * 1024 * 1024, `unpacked ${size} bytes`);
  });

  test('installed into an empty project the CLI adds one package; its bin prints the version, scans the test world, and never passes a gate on an unreachable site', async () => {
    const project = freshProject(path.join(dir, 'cli-user'));
    const started = performance.now();
    npm(['install', '--offline', tarballs.cli], project);
    const seconds = (performance.now() - started) / 1000;
    // Reported, not asserted (no test asserts a time): bench/results.md records the figure.
    console.log(`# install of the CLI tarball into an empty project: ${seconds.toFixed(2)} s`);
    const installed = fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    assert.deepEqual(installed, ['agent-readiness'], 'exactly one package');
    const bin = path.join(project, 'node_modules/.bin/agent-readiness');
    assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8', env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` } }).trim(), rootPkg.version);

    const run = await runCli(bin, ['scan', world.domain('open-basic'), '--name', 'Ada', '--email', 'ada@world-fixtures.com', '--api', service.url, '--json'], {
      HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath,
    });
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { report: { domain: string }; userNetwork: { outcomes: Record<string, string> } };
    assert.equal(doc.report.domain, world.domain('open-basic'));
    assert.equal(doc.userNetwork.outcomes['control:browser'], 'pass');

    // A gate never passes on what was not measured: the world's unreachable site, asserted, is "could not test".
    const down = world.domain('down');
    const gated = await runCli(bin, ['scan', down, '--name', 'Ada', '--email', 'ada@world-fixtures.com', '--api', service.url, '--assert', 'access.user-agents=error'], {
      HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath,
    });
    assert.equal(gated.code, 2, gated.stderr);
    assert.match(gated.stderr, /could not test: --assert access\.user-agents: the scan could not decide this check \(/);
    assert.match(gated.stdout, /assert access\.user-agents \(error\): \w+ could not test/);
  });

  test('the packed CLI\'s batch, with a key from the operator endpoint, writes CSV for a world batch and exits 0', async () => {
    const project = freshProject(path.join(dir, 'batch-user'));
    npm(['install', '--offline', tarballs.cli], project);
    const key = await operatorKey(service.url);
    const tag = Date.now() % 100_000;
    const domains = ['open-basic', 'robots-blocks-all', 'generic-403-all-agents'].map((s, i) => `${s}--pack${tag}${i}.world-fixtures.com`);
    fs.writeFileSync(path.join(project, 'domains.txt'), `${domains.join('\n')}\n`);
    const bin = path.join(project, 'node_modules/.bin/agent-readiness');
    // Asynchronously (runCli): the test world answering the batch's scans lives in this process.
    const run = await runCli(bin, ['batch', path.join(project, 'domains.txt'), '--format', 'csv', '--api', service.url], { AGENT_READINESS_KEY: key }, 300_000);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines[0], 'domain,state,scanId,reportUrl,headline,score,confidence,error');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',').slice(0, 2)), domains.map((d) => [d, 'done']));
    assert.match(run.stderr, /3 of 3 scanned, 0 could not be tested/);
  });

  test('the command the home page prints runs as printed from an empty folder with the packed CLI: only the site is swapped for a test-world one', async () => {
    const project = freshProject(path.join(dir, 'home-page-command'));
    npm(['install', '--offline', tarballs.cli], project);
    const page = await (await fetch(`${service.url}/`, { headers: { accept: 'text/html' } })).text();
    const printed = /From your own network and in CI: <code>([^<]*)<\/code>/.exec(page)?.[1];
    assert.ok(printed, 'the home page prints a CLI command');
    const command = decodeHTML(printed);
    assert.match(command, new RegExp(`^npx agent-readiness scan example\\.com .*--api ${service.url.replace(/\./g, '\\.')}$`));
    // example.com is the placeholder a reader replaces with their site; here, a site of the test world.
    // Asynchronously, so the test world in this process keeps answering the scan's probes.
    const { stdout: run } = await promisify(execFile)('bash', ['-c', `${command.replace('scan example.com', `scan ${world.domain('open-basic')}`)}; echo "exit $?"`], {
      cwd: project, encoding: 'utf8',
      env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: project, npm_config_offline: 'true', HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath },
    });
    assert.match(run, /Headline: open/);
    assert.match(run, /exit 0\n$/, run);
  });

  test('the typed client compiles a strict consumer (health, POST /scan, a typed error) and round-trips a scan', async () => {
    const project = freshProject(path.join(dir, 'client-user'));
    // openapi-fetch comes from the npm cache (the service depends on it); the registry answers only if the cache cannot.
    npm(['install', '--prefer-offline', tarballs.client], project);
    const installed = fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.')).sort();
    assert.deepEqual(installed, ['@agent-readiness', 'openapi-fetch', 'openapi-typescript-helpers'], 'the client, openapi-fetch and its own helper types');
    fs.writeFileSync(path.join(project, 'consumer.ts'), `import { createAgentReadinessClient, type ApiError, type Health, type ScanReport } from '@agent-readiness/client';

const argv = (globalThis as unknown as { process: { argv: string[] } }).process.argv;
const api = createAgentReadinessClient(argv[2] ?? 'http://127.0.0.1:8080');

const health = await api.GET('/health');
const h: Health | undefined = health.data;
if (!h?.ok) throw new Error('health');

// @ts-expect-error the body is typed: a misspelt field does not compile
void api.POST('/scan', { body: { domian: 'x.example' } });

const bad = await api.POST('/scan', { body: { domain: 'not a domain', lead: { name: 'Ada', email: 'ada@world-fixtures.com' } } });
const why: ApiError | undefined = bad.error;
if (bad.response.status !== 400 || typeof why?.error !== 'string') throw new Error('typed error');

const scanned = await api.POST('/scan', { body: { domain: argv[3] ?? '', lead: { name: 'Ada', email: 'ada@world-fixtures.com' } } });
const report: ScanReport | undefined = scanned.data;
if (!report) throw new Error(\`scan failed: \${scanned.error?.error}\`);
const again = await api.GET('/r/{scanId}', { params: { path: { scanId: report.scanId } }, headers: { accept: 'application/json' } });
const archived = again.data as ScanReport;
console.log(JSON.stringify({ rubric: h.rubric, error: why.error, headline: report.headline, same: archived.scanId === report.scanId && archived.headline === report.headline }));
`);
    // The README's example must compile too.
    const readme = fs.readFileSync(path.join(project, 'node_modules/@agent-readiness/client/README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme);
    assert.ok(example, 'the client README has a TypeScript example');
    fs.writeFileSync(path.join(project, 'readme-example.ts'), `${example[1]}export {};\n`);
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', lib: ['es2022', 'dom'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] },
      files: ['consumer.ts', 'readme-example.ts'],
    }));
    execFileSync(process.execPath, [tsc, '--strict', '--noEmit', '-p', project], { cwd: project, encoding: 'utf8' });

    // Asynchronously: the test world's proxies and sites live in this process, and a synchronous
    // child would hold them silent for the whole scan (transport errors, headline unknown) unless
    // an earlier scan of the site happened to be coalesced.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['consumer.ts', service.url, world.domain('open-basic')], { cwd: project, encoding: 'utf8' });
    const result = JSON.parse(out) as { rubric: string; error: string; headline: string; same: boolean };
    assert.equal(result.same, true);
    assert.equal(result.headline, 'open');
    assert.match(result.error, /\S/);
  });
});
