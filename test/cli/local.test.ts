// `agent-readiness scan localhost:<port>`: the rubric runs in the CLI process against a
// developer's server, and nothing (no API call, no proxy, no other host) is contacted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { validateScanReport } from '../../generated/validators.js';
import { gridKeys } from '../../src/scanner/grid.ts';
import { buildCli, freePort, runCli, startFixedApi } from './harness.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Dev shop</title><meta name="description" content="A shop in development.">
<link rel="canonical" href="http://localhost/"></head><body><main><h1>Dev shop</h1>${'<p>Products, prices and support, described in plain words for every visitor. </p>'.repeat(20)}</main></body></html>`;

describe('agent-readiness scan localhost:<port>', () => {
  let cli: ReturnType<typeof buildCli>;
  let site: http.Server;
  let port = 0;
  const siteHits: string[] = [];
  // Stands in for both the hosted API and a proxy: any request reaching it is a leak.
  let sentinel: Awaited<ReturnType<typeof startFixedApi>>;
  let env: Record<string, string>;

  before(async () => {
    cli = buildCli();
    site = http.createServer((req, res) => {
      siteHits.push(`${req.headers['user-agent']?.includes('GPTBot') ? 'GPTBot' : 'other'} ${req.url}`);
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
      // The local edge refuses one agent, so the report has something to say.
      if (req.url === '/' && String(req.headers['user-agent']).includes('GPTBot')) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('no');
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    port = (site.address() as AddressInfo).port;
    sentinel = await startFixedApi(500, { error: 'the local mode must not call me' });
    env = { AGENT_READINESS_API: sentinel.url, HTTPS_PROXY: sentinel.url, HTTP_PROXY: sentinel.url };
  });
  after(async () => {
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
    await sentinel.close();
    cli.cleanup();
  });

  test('--json: a schema-valid report of localhost:<port>, the local grid, nothing uploaded, no request to the API or a proxy', async () => {
    const run = await runCli(cli.cli, ['scan', `localhost:${port}`, '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as Record<string, any>;
    assert.ok(validateScanReport(doc.report), JSON.stringify(validateScanReport.errors));
    assert.equal(doc.cli.mode, 'local');
    assert.equal(doc.report.domain, `localhost:${port}`);
    assert.equal(doc.report.reportUrl, undefined);
    assert.match(doc.report.probeMethod, new RegExp(`^Measured from this machine against http://localhost:${port} `));
    assert.equal(doc.upload.status, 'not-uploaded');
    assert.deepEqual(doc.userNetwork.observations.map((o: { key: string }) => o.key), gridKeys());
    const row = (ua: string) => doc.report.matrix.find((m: { ua: string }) => m.ua === ua)!;
    assert.deepEqual([row('GPTBot').robotsSays, row('GPTBot').edgeDoes?.networkA, row('GPTBot').verdict], ['blocked', 'block', 'blocked-consistent']);
    assert.equal(row('ClaudeBot').edgeDoes?.networkA, 'pass');
    assert.ok(siteHits.some((h) => h === 'GPTBot /'), 'the local server was probed');
    assert.ok(siteHits.some((h) => h === 'other /robots.txt'));
    assert.deepEqual(sentinel.hits, [], 'no request reached the API (or went through a proxy)');
    assert.doesNotMatch(JSON.stringify(doc), /local-dev-server\.invalid/, 'the engine\'s stand-in name never surfaces');
  });

  test('human output: the same report with a "this machine" column, fixes from the in-process registry, and no link', async () => {
    const run = await runCli(cli.cli, ['scan', `http://127.0.0.1:${port}/`], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`http://127\\.0\\.0\\.1:${port} \\(local scan\\)`));
    assert.match(run.stdout, /Headline: partially-blocked/);
    assert.match(run.stdout, /agent\s+intent\s+robots\.txt\s+this machine\s+verdict/);
    assert.match(run.stdout, /GPTBot\s+training\s+blocked\s+block\s+blocked-consistent/);
    assert.match(run.stdout, /\n    fix: /);
    assert.match(run.stdout.trimEnd().split('\n').at(-1)!, /^Local scan: nothing was uploaded and no hosted service was contacted/);
    assert.deepEqual(sentinel.hits, []);
  });

  test('the gate works locally: exit 1 below --min-score', async () => {
    const run = await runCli(cli.cli, ['scan', `localhost:${port}`, '--min-score', '100'], env);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /Gate: failed: score \d+ is below --min-score 100/);
  });

  test('--version and --help print to stdout with exit 0; a usage error exits 2 on stderr', async () => {
    const version = await runCli(cli.cli, ['--version']);
    assert.deepEqual([version.code, version.stdout.trim()], [0, (await import('../../package.json', { with: { type: 'json' } })).default.version]);
    const help = await runCli(cli.cli, ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /agent-readiness scan <target> --name <name> --email <email>/);
    assert.match(help.stdout, /--api <URL>[\s\S]*--min-score <N>[\s\S]*--assert <id>[\s\S]*--json/);
    // The bin runs as an executable through its shebang, as npx runs it.
    assert.ok(readFileSync(cli.cli, 'utf8').startsWith('#!/usr/bin/env node\n'));
    assert.ok(statSync(cli.cli).mode & 0o111, 'dist/cli.mjs is executable');
    const direct = execFileSync(cli.cli, ['--version'], { env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` }, encoding: 'utf8' });
    assert.equal(direct, version.stdout);
    const usage = await runCli(cli.cli, ['scan', 'example.org']);
    assert.equal(usage.code, 2);
    assert.equal(usage.stdout, '');
    assert.match(usage.stderr, /a hosted scan needs your contact details/);
  });

  test('exit 2 when nothing listens on the port', async () => {
    const closed = await freePort();
    const run = await runCli(cli.cli, ['scan', `localhost:${closed}`], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, new RegExp(`could not test: nothing answered at http://localhost:${closed}`));
    assert.equal(run.stdout, '');
    assert.deepEqual(sentinel.hits, []);
  });
});
