// `agent-readiness batch <file>`: the real CLI bundle against the real service (a child process on
// SQLite, the embedded job engine) scanning the test world with a key from the operator endpoint;
// its CSV is the service's own CSV; exit codes 0 / 2 / 1; rejected lines and rows that carry
// control characters or bidi overrides are printed plain. The packed tarball's run of the same
// command is in packages.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseBatch } from '../../src/cli/batch-args.ts';
import { startWorld, type World } from '../world/index.ts';
import { buildCli, OPERATOR_TOKEN as TOKEN, operatorKey, runCli, startServiceProcess, type ServiceProcess } from './harness.ts';

const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const JUNK = '\x1b[31mRED\x1b[0m \u202eLIVE\u202c\n::warning::forged';


describe('agent-readiness batch: options', () => {
  test('usage errors exit 1 (not 2 as scan\'s do); --out names the format; --no-wait takes neither --out nor --format', () => {
    const api = { AGENT_READINESS_API: 'http://api.test' };
    for (const [argv, env, why] of [
      [['batch'], api, /needs a file/], [['batch', 'f.txt'], api, /--key <key> or set AGENT_READINESS_KEY/],
      [['batch', 'f.txt', '--key', 'k'], {}, /API address/], [['batch', 'f.txt', '--key', 'k', '--format', 'json'], api, /text, csv, jsonl/],
      [['batch', 'f.txt', '--key', 'k', '--name', 'Ada'], api, /Unknown option '--name'/], [['batch', 'f.txt', '--no-wait', '--out', 'x.csv'], { ...api, AGENT_READINESS_KEY: 'k' }, /--no-wait writes no results/],
    ] as Array<[string[], Record<string, string>, RegExp]>) {
      const p = parseBatch(argv, env);
      assert.equal(p.kind, 'usage-error', argv.join(' '));
      assert.ok(p.kind === 'usage-error' && p.exit === 1 && why.test(p.message), `${argv.join(' ')}: ${JSON.stringify(p)}`);
    }
    const ok = parseBatch(['batch', 'f.txt', '--out', 'r.CSV'], { ...api, AGENT_READINESS_KEY: 'k' });
    assert.deepEqual(ok.kind === 'batch' && [ok.options.format, ok.options.wait, ok.options.key], ['csv', true, 'k']);
    const jsonl = parseBatch(['batch', '-', '--key', 'k2', '--out', 'r.ndjson', '--api', 'http://x.test'], {});
    assert.deepEqual(jsonl.kind === 'batch' && [jsonl.options.format, jsonl.options.file, jsonl.options.key], ['jsonl', '-', 'k2']);
  });
});

describe('agent-readiness batch against the service and the test world', () => {
  let cli: ReturnType<typeof buildCli>;
  let world: World;
  let service: ServiceProcess;
  let dir: string;
  let key: string;
  before(async () => {
    cli = buildCli();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-cli-batch-'));
    world = await startWorld();
    service = await startServiceProcess({
      NETWORK_A_PROXY: world.proxies.networkA, NETWORK_B_PROXY: world.proxies.networkB, SCAN_RESOLVE: world.resolve,
      NODE_EXTRA_CA_CERTS: world.caPath, PROBE_TIMEOUT_MS: '3000', OPERATOR_TOKEN: TOKEN, FLEET_PER_ADDRESS_CONCURRENCY: '4', WORKER_CONCURRENCY: '4',
    });
    key = await operatorKey(service.url);
  });
  after(async () => {
    await service?.stop();
    await world?.stop();
    cli?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a CSV file of world domains: exit 0, plain progress lines, and --out holds the service\'s own CSV rows', async () => {
    const tag = Date.now() % 100_000;
    const domains = ['open-basic', 'robots-blocks-all', 'generic-403-all-agents', 'robots-partial'].map((s, i) => `${s}--cli${tag}${i}.world-fixtures.com`);
    const file = path.join(dir, 'portfolio.csv');
    fs.writeFileSync(file, `owner,domain\nAda,${domains[0]}\n${domains.slice(1).map((d) => `Grace,${d}`).join('\n')}\nAda,${domains[0]!.toUpperCase()}\n`);
    const out = path.join(dir, 'results.csv');
    const run = await runCli(cli.cli, ['batch', file, '--out', out, '--label', 'cli'], { AGENT_READINESS_API: service.url, AGENT_READINESS_KEY: key }, 300_000);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '', 'the rows went to --out');
    assert.match(run.stderr, /batch [0-9a-f-]{36}: 4 domains queued, 1 duplicate folded/);
    assert.match(run.stderr, /batch \[#{24}\] 4\/4 done/, 'a plain line says the batch is done');
    assert.doesNotMatch(run.stderr, /\r|\x1b/, 'no bar redrawn in place without a terminal');
    assert.ok(!run.stderr.includes(key), 'the key is never printed');
    const batchId = /batch ([0-9a-f-]{36}):/.exec(run.stderr)![1]!;
    const written = fs.readFileSync(out, 'utf8');
    const lines = written.trim().split('\n');
    assert.equal(lines[0], 'domain,state,scanId,reportUrl,headline,score,confidence,error');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), domains);
    assert.ok(lines.slice(1).every((l) => l.split(',')[1] === 'done'), written);
    const own = await fetch(`${service.url}/batches/${batchId}/results?format=csv`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(written, await own.text(), 'the CLI\'s CSV is the service\'s CSV');
    const report = await fetch(lines[1]!.split(',')[3]!, { headers: { accept: 'application/json' } });
    assert.equal(report.status, 200, 'the reportUrl serves the report');
  });

  test('a rejected line exits 2, named plainly on stderr (its control characters and bidi overrides dropped); --no-wait prints the links', async () => {
    const file = path.join(dir, 'mixed.txt');
    fs.writeFileSync(file, `# portfolio\nopen-basic--nowait${Date.now() % 100_000}.world-fixtures.com\n${JUNK.replace('\n', ' ')}\n`);
    const run = await runCli(cli.cli, ['batch', file, '--no-wait', '--key', key, '--api', service.url]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stdout, /^batch [0-9a-f-]{36}\nstatus: http:\/\/127\.0\.0\.1:\d+\/batches\/[0-9a-f-]{36}\nresults: .*\/results\nsummary: .*\/summary\nsummary page: http:\/\/127\.0\.0\.1:\d+\/batches\/[0-9a-f-]{36}\/shared\/[\w-]{43}\nresults page: .*\/shared\/[\w-]{43}\/results\n$/);
    assert.match(run.stderr, /line 3 not scanned: "RED LIVE ::warning::forged": /);
    assert.doesNotMatch(run.stderr, FORBIDDEN);
  });

  test('an unknown key: exit 2 with the refusal (401); a file that does not exist: exit 1', async () => {
    const file = path.join(dir, 'one.txt');
    fs.writeFileSync(file, 'example.com\n');
    const refused = await runCli(cli.cli, ['batch', file, '--key', 'ar_live_not-a-key', '--api', service.url]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /could not test: the API key was refused \(unknown or revoked\).*\(HTTP 401\)/);
    const missing = await runCli(cli.cli, ['batch', path.join(dir, 'nope.txt'), '--key', key, '--api', service.url]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nope\.txt \(ENOENT\)/);
  });
});

describe('agent-readiness batch: rows the CLI did not expect', () => {
  let cli: ReturnType<typeof buildCli>;
  let server: http.Server;
  let url: string;
  const id = '3f1c2d7e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
  before(async () => {
    cli = buildCli();
    // A stand-in API: one batch whose second row failed with a sentence full of terminal controls.
    server = http.createServer((req, res) => {
      req.resume();
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const links = { self: `${url}/batches/${id}`, results: `${url}/batches/${id}/results`, summary: `${url}/batches/${id}/summary`, summaryPage: `${url}/batches/${id}/shared/tok`, resultsPage: `${url}/batches/${id}/shared/tok/results` };
      if (req.method === 'POST') return json(202, { batchId: id, status: 'queued', total: 2, duplicates: 0, rejected: [], links });
      if (req.url?.startsWith(`/batches/${id}/results`)) {
        const rows = [
          { domain: 'a.example', state: 'done', scanId: id, reportUrl: `${url}/r/${id}`, headline: 'open', score: 90, confidence: 'high', error: null },
          { domain: 'b.example', state: 'failed', scanId: null, reportUrl: null, headline: null, score: null, confidence: null, error: `The scan could not complete. ${JUNK}` },
        ];
        return res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      }
      return json(200, { batchId: id, status: 'done', label: null, profile: null, total: 2, done: 1, failed: 1, pending: 0, cancelled: 0, byHeadline: { open: 1 }, createdAt: '2026-01-01T00:00:00Z', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:09Z', estimatedSecondsLeft: null, rejected: [], links });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    cli?.cleanup();
  });

  test('a failed item exits 2, and its error reaches every format as one plain line', async () => {
    for (const format of ['csv', 'jsonl', 'text']) {
      const run = await runCli(cli.cli, ['batch', '-', '--format', format, '--key', 'k', '--api', url]);
      assert.equal(run.code, 2, `${format}: ${run.stderr}`);
      assert.doesNotMatch(run.stdout, FORBIDDEN, format);
      assert.doesNotMatch(run.stdout, /^::warning::/m, `${format}: no workflow command of the site's own`);
      assert.ok(run.stdout.includes('The scan could not complete. RED LIVE ::warning::forged'), `${format}: ${run.stdout}`);
      assert.equal(run.stdout.trim().split('\n').length, format === 'csv' ? 3 : 2, format);
      assert.match(run.stderr, /1 of 2 scanned, 1 could not be tested/);
    }
  });
});
