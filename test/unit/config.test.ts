import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ConfigError, configVariables, loadConfig } from '../../src/config.ts';

test('defaults make a fresh machine work: port 8080, SQLite under ./data, gates off', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.baseUrl, 'http://localhost:8080');
  assert.equal(c.databaseUrl, 'sqlite:./data/agent-readiness.sqlite');
  assert.deepEqual(c.rateLimitPerDomain, { points: 3, durationS: 60 });
  assert.deepEqual(c.rateLimitPerIp, { points: 5, durationS: 1800 });
  assert.equal(c.coalesceWindowS, 45);
  assert.equal(c.scanDeadlineMs, 25000);
  assert.equal(c.probeTimeoutMs, 8000);
  assert.equal(c.turnstileSecret, undefined);
  assert.equal(c.operatorToken, undefined);
  assert.equal(c.trustProxy, false);
  assert.equal(c.networkBProxy, undefined);
});

test('BASE_URL follows PORT unless set, and loses trailing slashes', () => {
  assert.equal(loadConfig({ PORT: '9000' }).baseUrl, 'http://localhost:9000');
  assert.equal(loadConfig({ BASE_URL: 'https://ready.example/' }).baseUrl, 'https://ready.example');
});

const bad: Array<[string, Record<string, string>]> = [
  ['PORT', { PORT: 'eighty' }],
  ['PORT', { PORT: '70000' }],
  ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
  ['RATE_LIMIT_PER_DOMAIN', { RATE_LIMIT_PER_DOMAIN: 'three' }],
  ['NETWORK_A_PROXY', { NETWORK_A_PROXY: 'socks5://1.2.3.4:1080' }],
  ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
  ['SCAN_DEADLINE_MS', { SCAN_DEADLINE_MS: '10' }],
  ['OPERATOR_TOKEN', { OPERATOR_TOKEN: 'short' }],
  ['SCAN_RESOLVE', { SCAN_RESOLVE: 'shop.example-site.com' }],
];
for (const [name, env] of bad) {
  test(`a bad ${name} (${Object.values(env)[0]}) is refused with a message naming it`, () => {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.message.includes(name));
  });
}

// design/operations.md names these; the README's table documents them for operators.
const OPERATIONS_VARIABLES = [
  'PORT', 'HOST', 'BASE_URL', 'DATABASE_URL', 'REDIS_URL', 'NETWORK_A_PROXY', 'NETWORK_B_PROXY', 'SCAN_RESOLVE',
  'SMTP_URL', 'EXCLUDED_DOMAINS', 'TURNSTILE_SECRET', 'TURNSTILE_VERIFY_URL', 'RATE_LIMIT_PER_DOMAIN', 'RATE_LIMIT_PER_IP',
  'TRUST_PROXY', 'COALESCE_WINDOW_S', 'SCAN_DEADLINE_MS', 'PROBE_TIMEOUT_MS', 'SCANNER_ZONE', 'OPERATOR_TOKEN', 'LOG_LEVEL',
];

test('every variable of the operator interface is in the config schema', () => {
  for (const v of OPERATIONS_VARIABLES) assert.ok(configVariables.includes(v), `${v} missing from src/config.ts`);
});

test('the README configuration table documents every variable the config reads', () => {
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Architecture'));
  const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
  for (const v of configVariables.filter((name) => name !== 'NODE_ENV')) assert.ok(documented.has(v), `${v} is not in the README table`);
  for (const v of documented) assert.ok(configVariables.includes(v) || v === 'NODE_EXTRA_CA_CERTS' || v === 'NODE_ENV', `README documents ${v}, which the config does not read`);
});

test('npm start with bad configuration exits 1 and names the variable', () => {
  const r = spawnSync(process.execPath, ['src/main.js'], { env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /PORT/);
  assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/, 'a message, not a stack trace');
});
