// `--help` is the reference and the README carries a copy: the two must be identical, and
// the help must name every accepted target form and every cause of exit 2.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseCli } from '../../src/cli/args.ts';
import { buildCli, runCli } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('agent-readiness --help and the README', () => {
  let cli: ReturnType<typeof buildCli>;
  let help: string;
  before(async () => {
    cli = buildCli();
    const run = await runCli(cli.cli, ['--help']);
    assert.equal(run.code, 0);
    help = run.stdout;
  });
  after(() => cli?.cleanup());

  test('the README section "agent-readiness --help" is the help output, byte for byte', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const m = /### `agent-readiness --help`\n[\s\S]*?```text\n([\s\S]*?)```\n/.exec(readme);
    assert.ok(m, 'the README has the section');
    assert.equal(m[1], help);
  });

  test('every target form the help lists is accepted by the parser, local ones as local scans', () => {
    const forms: Array<[string, boolean]> = [
      ['example.com', false], ['https://www.example.com/x', false],
      ['localhost:3000', true], ['127.0.0.1:3000', true], ['[::1]:3000', true], ['http://localhost:3000', true], ['https://127.0.0.1:8443', true],
    ];
    for (const shown of ['example.com', 'https://www.example.com/x', 'localhost:<port>', '127.0.0.1:<port>', '[::1]:<port>']) assert.ok(help.includes(shown), `help shows ${shown}`);
    for (const [form, local] of forms) {
      const p = parseCli(['scan', form, '--name', 'Ada Lovelace', '--email', 'ada@world-fixtures.com', '--api', 'http://api.test'], {});
      assert.equal(p.kind, 'scan', form);
      assert.equal(p.kind === 'scan' && p.local !== null, local, form);
    }
    assert.match(help, /optionally with http:\/\/ or https:\/\//);
  });

  test('every cause of exit 2 that the parser produces is listed in the help', () => {
    const causes: Array<[string[], Record<string, string>, RegExp]> = [
      [['fetch', 'x'], {}, /unknown option or command/],
      [['scan'], {}, /missing target,/],
      [['scan', 'example.org'], {}, /missing or\s+invalid contact/],
      [['scan', 'example.org', '--name', 'Ada', '--email', 'not-an-email'], {}, /missing or\s+invalid contact/],
      [['scan', 'example.org', '--name', 'Ada', '--email', 'ada@world-fixtures.com'], {}, /no API for a hosted scan \(neither --api nor AGENT_READINESS_API\)/],
      [['scan', 'example.org', '--min-score', 'x'], {}, /bad --min-score, --profile, --format or --assert level/],
      [['scan', 'example.org', '--format', 'x'], {}, /bad --min-score, --profile, --format or --assert level/],
      [['scan', 'example.org', '--intent', 'training=maybe'], {}, /a bad --intent/],
      [['scan', 'example.org', '--header', 'no colon'], {}, /a malformed --header or AGENT_READINESS_HEADERS line/],
      [['scan', 'example.org'], { AGENT_READINESS_HEADERS: 'Host: x' }, /a malformed --header or AGENT_READINESS_HEADERS line/],
    ];
    for (const [argv, env, listed] of causes) {
      assert.equal(parseCli(argv, env).kind, 'usage-error', argv.join(' '));
      assert.match(help, listed);
    }
    for (const runtime of [/the API unreachable, or any 4xx\/5xx answer/, /an --assert id that is not in the check catalog/, /the check catalog unreadable/, /a --baseline file missing, unreadable, stale/, /written for another domain/, /an --assert error check the scan could not decide/, /a check the --baseline decided that this scan\s+could not/, /--write-baseline on a scan that decided fewer checks/, /no score or a headline of unknown/, /nothing listening on the port/]) {
      assert.match(help, runtime);
    }
  });
});
