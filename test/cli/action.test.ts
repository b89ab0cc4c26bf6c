// action.yml (the composite GitHub Action): every input reaches the CLI as a real flag. The
// action's own run script is executed with a stand-in `npx` that records its arguments,
// which must then parse with the CLI's own parser into the options the inputs asked for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { parseCli } from '../../src/cli/args.ts';

const root = path.resolve(import.meta.dirname, '../..');

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Array<{ uses?: string; run?: string; shell?: string; env?: Record<string, string> }> };
}

function runAction(action: Action, inputs: Record<string, string>): string[] {
  const step = action.runs.steps.find((s) => s.run)!;
  const env: Record<string, string> = {};
  for (const [name, expr] of Object.entries(step.env ?? {})) {
    const m = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(expr);
    assert.ok(m, `${name} comes from one input: ${expr}`);
    assert.ok(m[1]! in action.inputs, `${name} reads a declared input (${m[1]})`);
    env[name] = inputs[m[1]!] ?? action.inputs[m[1]!]!.default ?? '';
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-action-'));
  try {
    fs.writeFileSync(path.join(dir, 'npx'), '#!/usr/bin/env bash\nfor a in "$@"; do printf "%s\\0" "$a"; done\n', { mode: 0o755 });
    const out = execFileSync('bash', ['-e', '-c', step.run!], { env: { PATH: `${dir}:${process.env.PATH ?? ''}`, ...env }, encoding: 'utf8' });
    return out.split('\0').slice(0, -1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the GitHub Action (action.yml)', () => {
  const action = YAML.parse(fs.readFileSync(path.join(root, 'action.yml'), 'utf8')) as Action;

  test('a composite action with setup-node, and the inputs the README documents', () => {
    assert.equal(action.runs.using, 'composite');
    assert.ok(action.runs.steps.some((s) => s.uses?.startsWith('actions/setup-node@')));
    for (const name of ['domain', 'contact', 'min-score', 'assert', 'baseline', 'api']) assert.ok(name in action.inputs, name);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const name of Object.keys(action.inputs)) assert.match(readme, new RegExp(`\\| \`${name}\` \\|`), `README documents input ${name}`);
  });

  test('every input maps to a CLI flag the CLI really accepts, with the value it was given', () => {
    const argv = runAction(action, {
      domain: 'www.example.org', contact: 'web@example.org', 'contact-name': 'Web Team', 'min-score': '70',
      assert: 'access.user-agents\ndiscovery.llms-txt=warn', baseline: '.agent-readiness/baseline.json', api: 'https://agent-readiness.example', format: 'junit',
    });
    assert.deepEqual(argv.slice(0, 2), ['--yes', 'agent-readiness@latest']);
    const parsed = parseCli(argv.slice(2), {});
    assert.equal(parsed.kind, 'scan', JSON.stringify(parsed));
    if (parsed.kind !== 'scan') return;
    assert.deepEqual(parsed.options, {
      target: 'www.example.org', name: 'Web Team', email: 'web@example.org', minScore: 70, fresh: false, json: false, format: 'junit',
      asserts: [{ id: 'access.user-agents', level: 'error' }, { id: 'discovery.llms-txt', level: 'warn' }],
      baseline: '.agent-readiness/baseline.json', writeBaseline: false, api: 'https://agent-readiness.example',
    });
  });

  test('headers reach the CLI through AGENT_READINESS_HEADERS, never argv, and need no contact: an authenticated preview', () => {
    const step = action.runs.steps.find((st) => st.run)!;
    assert.equal(step.env?.AGENT_READINESS_HEADERS, '${{ inputs.headers }}');
    const secret = 'x-vercel-protection-bypass: s3cret';
    const argv = runAction(action, { domain: 'shop-git-x.vercel.app', headers: secret });
    assert.ok(!argv.join(' ').includes('s3cret'), 'the secret is not on the command line');
    assert.deepEqual(argv.slice(2), ['scan', 'shop-git-x.vercel.app', '--format', 'text']);
    const parsed = parseCli(argv.slice(2), { AGENT_READINESS_HEADERS: secret });
    assert.equal(parsed.kind, 'scan', JSON.stringify(parsed));
    if (parsed.kind === 'scan') assert.deepEqual(parsed.options.headers, [['x-vercel-protection-bypass', 's3cret']]);
  });

  test('optional inputs left empty add no flags; the API may come from AGENT_READINESS_API instead', () => {
    const argv = runAction(action, { domain: 'example.org', contact: 'web@example.org' });
    const parsed = parseCli(argv.slice(2), { AGENT_READINESS_API: 'https://agent-readiness.example' });
    assert.equal(parsed.kind, 'scan', JSON.stringify(parsed));
    assert.deepEqual(argv.slice(2), ['scan', 'example.org', '--name', 'GitHub Actions', '--email', 'web@example.org', '--format', 'text']);
  });
});
