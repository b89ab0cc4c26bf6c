// Text a site controls reaches the CLI's output (a robots.txt line quoted in the reasons and the
// matrix notes, page titles, llms.txt): in every format it arrives without escape sequences,
// control characters or bidi overrides, as one line; Markdown (stdout and $GITHUB_STEP_SUMMARY)
// escapes it and JUnit escapes it as XML. The real CLI bundle scans a hostile local server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildCli, runCli } from './harness.ts';

// A colour escape, a clear-screen by 8-bit CSI, a Trojan Source override, a forged log line with a
// GitHub workflow command, and Markdown/HTML that would link, embed or break a table.
const JUNK = '\x1b[31mRED\x1b[0m \u009b2J \u202eLIVE\u202c [x](https://evil.example) <img src=x> | ::warning::forged';
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('site text in the CLI output', () => {
  let cli: ReturnType<typeof buildCli>;
  let server: http.Server;
  let target: string;
  let dir: string;

  before(async () => {
    cli = buildCli();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-site-text-'));
    server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: GPTBot\nDisallow: / # ${JUNK}\n\nUser-agent: *\nAllow: /\n`);
      if (req.url === '/llms.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`# Site ${JUNK}\n\n> ${JUNK}\n\n- [a](/a)\n`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>T ${JUNK}</title></head><body><main>${'<p>Plain words for people and agents. </p>'.repeat(40)}</main></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    target = `localhost:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    cli?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every format: the site\'s robots.txt line is quoted without controls, on one line; Markdown and JUnit escape it', async () => {
    const summary = path.join(dir, 'summary.md');
    const outputs: Record<string, string> = {};
    for (const format of ['text', 'json', 'markdown', 'junit']) {
      const run = await runCli(cli.cli, ['scan', target, '--format', format], format === 'markdown' ? { GITHUB_STEP_SUMMARY: summary } : {});
      assert.equal(run.code, 0, run.stderr);
      outputs[format] = run.stdout;
      assert.doesNotMatch(run.stdout, FORBIDDEN, `${format}: no control character, escape or bidi override`);
      assert.doesNotMatch(run.stderr, FORBIDDEN, `${format}: stderr too`);
      assert.doesNotMatch(run.stdout, /^::warning::/m, `${format}: no line of the site's becomes a workflow command`);
    }
    outputs.summary = fs.readFileSync(summary, 'utf8');
    assert.doesNotMatch(outputs.summary, FORBIDDEN);

    // The quoted line is there, cleaned: what a reader sees of it, in one line.
    const cleaned = 'RED  LIVE [x](https://evil.example) <img src=x> | ::warning::forged';
    assert.ok(outputs.text!.includes(cleaned), outputs.text);
    assert.ok(JSON.stringify(JSON.parse(outputs.json!).report.reasons).includes(cleaned));
    // Markdown: every punctuation mark escaped, so nothing links, embeds or opens a table cell.
    for (const md of [outputs.markdown!, outputs.summary]) {
      assert.doesNotMatch(md, /(?<!\\)\[x\]\(|(?<!\\)<img/, 'no live link or image');
      for (const row of md.split('\n').filter((l) => l.startsWith('| `'))) assert.equal(row.split(/(?<!\\)\|/).length, 6, row);
    }
    // JUnit: the XML special characters are entities.
    assert.doesNotMatch(outputs.junit!, /<img/);
    if (outputs.junit!.includes('evil.example')) assert.ok(outputs.junit!.includes('&lt;img src=x&gt;'), outputs.junit);
  });
});
