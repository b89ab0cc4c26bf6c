// The dependency rules (.dependency-cruiser.cjs) can fail: each is fed a tiny fake src/ tree that
// breaks it (test/fixtures/dependency-rules/<rule>/, named after the rule) and must fire, by name,
// and no other rule may. The expected rules are the fixture folders, not the configuration, so
// removing or weakening a rule fails here. And every entry of src/ sits in a layer, so a new
// folder cannot slip past the rules by being named in none of them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/dependency-rules');
const configPath = path.join(root, '.dependency-cruiser.cjs');
const config = createRequire(import.meta.url)(configPath) as { forbidden: Array<{ name: string }>; layers: Record<string, string[]> };
const LAYER_FIXTURE = 'every-entry-in-a-layer';

/** The src/ entries (folders and top-level files) that no layer names. */
function unlayered(srcDir: string): string[] {
  const placed = new Set(Object.values(config.layers).flat());
  return fs.readdirSync(srcDir).filter((e) => !placed.has(e)).sort();
}

interface Violation { rule: { name: string }; from: string; to: string }

async function cruise(dir: string, targets = ['src', 'test'].filter((d) => fs.existsSync(path.join(dir, d)))): Promise<Violation[]> {
  // depcruise exits non-zero when a rule fires; the JSON on stdout is the answer either way.
  const run = await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'), ...targets, '--config', configPath, '--output-type', 'json'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 })
    .catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
  assert.ok(run.stdout.trim().startsWith('{'), `dependency-cruiser gave no result in ${dir}: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('dependency rules', { concurrency: 3 }, () => {
  test('every entry of src/ sits in a layer of .dependency-cruiser.cjs, and a new one that does not is named', () => {
    assert.deepEqual(unlayered(path.join(root, 'src')), [], 'place each new src/ entry in a layer of .dependency-cruiser.cjs');
    assert.deepEqual(unlayered(path.join(fixtures, LAYER_FIXTURE, 'src')), ['reports-v2']);
    const entries = Object.values(config.layers).flat();
    assert.equal(new Set(entries).size, entries.length, 'no entry is in two layers');
  });

  const ruleFixtures = fs.readdirSync(fixtures, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== LAYER_FIXTURE).map((e) => e.name).sort();

  test('every rule of the configuration has a fixture that breaks it', () => {
    assert.deepEqual(config.forbidden.map((r) => r.name).sort(), ruleFixtures);
  });

  for (const rule of ruleFixtures) {
    test(`${rule}: its fixture makes it fire, and no other rule`, async () => {
      const violations = await cruise(path.join(fixtures, rule));
      const fired = [...new Set(violations.map((v) => v.rule.name))];
      assert.deepEqual(fired, [rule], violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).join('\n') || 'nothing fired');
    });
  }

  test('handlers-below-the-root leaves the composition root\'s types alone', async () => {
    const violations = await cruise(path.join(fixtures, 'handlers-below-the-root'));
    assert.deepEqual(violations.map((v) => `${v.from} -> ${v.to}`), ['src/handlers/getHealth.ts -> src/app.ts']);
  });

  test('the real tree breaks no rule', async () => {
    const violations = await cruise(root, ['src']);
    assert.deepEqual(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`), []);
  });
});
