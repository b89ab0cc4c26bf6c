// The webhook signature (Stripe's shape) against implementations we did not write: Python's
// hmac module and OpenSSL sign the same bytes and must give the same v1, and our verifier must
// accept their headers. Each skips loudly when its tool is absent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { signPayload, verifySignature } from '../../src/webhooks/signature.ts';
import { deriveWebhookSecret, newMasterKey } from '../../src/webhooks/secrets.ts';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const PY = has('python3');
const OPENSSL = has('openssl');
if (!PY) console.warn('SKIPPING the Python cross-check of webhook signatures: python3 is not installed');
if (!OPENSSL) console.warn('SKIPPING the OpenSSL cross-check of webhook signatures: openssl is not installed');

const SECRET = 'whsec_3q2-7wAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AB';
// A body with non-ASCII text and a line break: the signature is over the raw UTF-8 bytes.
const BODY = '{"id":"evt_1","type":"readiness.changed","domain":"bücher.example","note":"line\\nbreak ✓"}';
const T = 1_767_225_600;

const PYTHON_SIGN = 'import hmac,hashlib,sys\nsecret,t,body=sys.argv[1],sys.argv[2],sys.stdin.buffer.read()\nprint(hmac.new(secret.encode(),t.encode()+b"."+body,hashlib.sha256).hexdigest())';

describe('webhook signatures', () => {
  test('Python hmac computes the same v1 for the same secret, time and raw body', { skip: PY ? false : 'python3 is not installed' }, () => {
    const ours = signPayload(SECRET, T, BODY);
    const theirs = execFileSync('python3', ['-c', PYTHON_SIGN, SECRET, String(T)], { input: Buffer.from(BODY, 'utf8'), encoding: 'utf8' }).trim();
    assert.equal(ours, `t=${T},v1=${theirs}`);
  });

  test('OpenSSL computes the same v1', { skip: OPENSSL ? false : 'openssl is not installed' }, () => {
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r'], { input: Buffer.concat([Buffer.from(`${T}.`), Buffer.from(BODY, 'utf8')]), encoding: 'utf8' });
    assert.equal(signPayload(SECRET, T, BODY), `t=${T},v1=${out.split(' ')[0]}`);
  });

  test('our verifier accepts a header Python signed, and refuses a changed body, a wrong secret, an old or future time', { skip: PY ? false : 'python3 is not installed' }, () => {
    const v1 = execFileSync('python3', ['-c', PYTHON_SIGN, SECRET, String(T)], { input: Buffer.from(BODY, 'utf8'), encoding: 'utf8' }).trim();
    const header = `t=${T},v1=${v1}`;
    assert.deepEqual(verifySignature(header, BODY, SECRET, { now: T + 10 }), { ok: true, timestamp: T });
    assert.deepEqual(verifySignature(header, Buffer.from(BODY, 'utf8'), SECRET, { now: T }), { ok: true, timestamp: T });
    const cases: Array<[string, ReturnType<typeof verifySignature>]> = [
      ['changed body', verifySignature(header, BODY.replace('evt_1', 'evt_2'), SECRET, { now: T })],
      ['wrong secret', verifySignature(header, BODY, `${SECRET}x`, { now: T })],
      ['replayed after the tolerance', verifySignature(header, BODY, SECRET, { now: T + 301 })],
      ['from the future', verifySignature(header, BODY, SECRET, { now: T - 301 })],
      ['no header', verifySignature(undefined, BODY, SECRET, { now: T })],
      ['no v1', verifySignature(`t=${T}`, BODY, SECRET, { now: T })],
      ['no t', verifySignature(`v1=${v1}`, BODY, SECRET, { now: T })],
      ['v0 only', verifySignature(`t=${T},v0=${v1}`, BODY, SECRET, { now: T })],
    ];
    for (const [name, result] of cases) assert.equal(result.ok, false, name);
  });

  test('a header with several v1 values (a secret being rotated) verifies when any matches', () => {
    const good = signPayload(SECRET, T, BODY).split('v1=')[1]!;
    assert.equal(verifySignature(`t=${T},v1=${'0'.repeat(64)},v1=${good}`, BODY, SECRET, { now: T }).ok, true);
  });

  test('secrets are derived per watch and version, prefixed whsec_, and differ across master keys', () => {
    const master = newMasterKey();
    const a = deriveWebhookSecret(master, 'w1', 1);
    assert.match(a, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(deriveWebhookSecret(master, 'w1', 1), a);
    assert.notEqual(deriveWebhookSecret(master, 'w1', 2), a);
    assert.notEqual(deriveWebhookSecret(master, 'w2', 1), a);
    assert.notEqual(deriveWebhookSecret(newMasterKey(), 'w1', 1), a);
  });
});
