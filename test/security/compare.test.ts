// Every secret a request presents is compared in constant time through one helper
// (src/security/compare.ts: SHA-256 of both sides, then timingSafeEqual over the equal-length
// digests). For each call site: the right secret is accepted, a wrong one of the same length
// and one of another length are refused. Then a lint over src/: no other timingSafeEqual, and
// no `===`/`!==` between a secret-like name and anything but undefined/null/a literal (the
// scanner and the CLI, where "token" is a robots.txt user-agent token, hold no secret of ours).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import knex from 'knex';
import request from 'supertest';
import { ApiKeys } from '../../src/keys/service.ts';
import { newUploadToken, tokenMatches as uploadTokenMatches } from '../../src/scans/token.ts';
import { secretsEqual } from '../../src/security/compare.ts';
import { tokenMatches as watchTokenMatches, watchToken } from '../../src/watches/tokens.ts';
import { signPayload, verifySignature } from '../../src/webhooks/signature.ts';
import { newMasterKey } from '../../src/webhooks/secrets.ts';
import { testApp } from '../helpers/app.ts';

/** The same length as `s`, one character changed at the end (where a byte-by-byte compare would take longest). */
function sameLengthWrong(s: string): string {
  return s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
}

describe('the one constant-time comparison', () => {
  test('right accepted; wrong of the same length, of another length, empty, too long or not a string refused', () => {
    const secret = randomBytes(32).toString('base64url');
    assert.equal(secretsEqual(secret, secret), true);
    assert.equal(secretsEqual(sameLengthWrong(secret), secret), false);
    assert.equal(secretsEqual(secret.slice(0, 10), secret), false);
    assert.equal(secretsEqual(`${secret}x`, secret), false);
    assert.equal(secretsEqual('', secret), false);
    assert.equal(secretsEqual('x'.repeat(5000), 'x'.repeat(5000)), false, 'over 4096 characters is refused unhashed');
    for (const v of [undefined, null, 42, [secret], { secret }]) assert.equal(secretsEqual(v, secret), false);
    assert.equal(secretsEqual(secret, undefined), false, 'no expected secret: nothing matches');
    assert.equal(secretsEqual('', ''), false);
  });
});

describe('every call site', () => {
  test('the operator token on /internal (operator router): 200 right, 401 wrong of the same or another length', async () => {
    const TOKEN = randomBytes(24).toString('base64url');
    const t = await testApp({ OPERATOR_TOKEN: TOKEN, LOG_LEVEL: 'silent' });
    try {
      await request(t.app).get('/internal/stats.json').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      await request(t.app).get('/internal/stats.json').set('Authorization', `Bearer ${sameLengthWrong(TOKEN)}`).expect(401);
      await request(t.app).get('/internal/stats.json').set('Authorization', `Bearer ${TOKEN.slice(0, 20)}`).expect(401);
      await request(t.app).get('/internal/stats.json').set('Authorization', `Bearer ${TOKEN}${TOKEN}`).expect(401);
    } finally {
      await t.close();
    }
  });

  test('the operator token as a bearer of the batch API (ApiKeys.identify): operator when right, a 401 otherwise', async () => {
    const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    try {
      const TOKEN = randomBytes(24).toString('base64url');
      const keys = new ApiKeys({ db, now: () => new Date(), operatorToken: TOKEN });
      assert.deepEqual(await keys.identify(`Bearer ${TOKEN}`), { kind: 'operator' });
      for (const wrong of [sameLengthWrong(TOKEN), TOKEN.slice(0, 20), `${TOKEN}x`]) {
        await assert.rejects(keys.identify(`Bearer ${wrong}`), (err: { status?: number }) => err.status === 401, wrong);
      }
      const none = new ApiKeys({ db, now: () => new Date() });
      await assert.rejects(none.identify(`Bearer ${TOKEN}`), (err: { status?: number }) => err.status === 401, 'no OPERATOR_TOKEN: no operator');
    } finally {
      await db.destroy();
    }
  });

  test('a watch\'s manage and mail tokens (watches/tokens.ts): each opens its own kind only', () => {
    const master = newMasterKey();
    const id = '6f1c4f4e-8a43-4a4c-9a53-0a9f3f7a1c11';
    for (const kind of ['manage', 'mail'] as const) {
      const right = watchToken(master, id, kind);
      assert.equal(watchTokenMatches(master, id, kind, right), true);
      assert.equal(watchTokenMatches(master, id, kind, sameLengthWrong(right)), false);
      assert.equal(watchTokenMatches(master, id, kind, right.slice(0, 40)), false);
      assert.equal(watchTokenMatches(master, id, kind, `${right}=`), false);
      assert.equal(watchTokenMatches(master, id, kind, undefined), false);
      assert.equal(watchTokenMatches(master, id, kind === 'mail' ? 'manage' : 'mail', right), false, 'one kind never opens the other');
      assert.equal(watchTokenMatches(newMasterKey(), id, kind, right), false, 'another master key, another token');
    }
  });

  test('the CLI upload token (scans/token.ts), stored as its hash', () => {
    const { token, hash } = newUploadToken();
    assert.equal(uploadTokenMatches(token, hash), true);
    assert.equal(uploadTokenMatches(sameLengthWrong(token), hash), false);
    assert.equal(uploadTokenMatches(token.slice(0, 30), hash), false);
    assert.equal(uploadTokenMatches(`${token}x`, hash), false);
    assert.equal(uploadTokenMatches(token, null), false);
    assert.equal(uploadTokenMatches(42, hash), false);
  });

  test('a webhook signature (webhooks/signature.ts verifier): the right v1 verifies, a same-length or other-length one does not', () => {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const body = '{"id":"evt_1","type":"readiness.test"}';
    const now = 1_800_000_000;
    const header = signPayload(secret, now, body);
    const v1 = /v1=([0-9a-f]{64})/.exec(header)![1]!;
    assert.equal(createHmac('sha256', secret).update(`${now}.${body}`).digest('hex'), v1, 'checked against node:crypto directly');
    assert.deepEqual(verifySignature(header, body, secret, { now }), { ok: true, timestamp: now });
    assert.equal(verifySignature(`t=${now},v1=${v1.slice(0, -1)}${v1.endsWith('0') ? '1' : '0'}`, body, secret, { now }).ok, false);
    assert.equal(verifySignature(`t=${now},v1=${v1.slice(0, 63)}`, body, secret, { now }).ok, false);
    assert.equal(verifySignature(`t=${now},v1=${v1}0`, body, secret, { now }).ok, false);
    assert.equal(verifySignature(`t=${now},v1=${'0'.repeat(64)},v1=${v1}`, body, secret, { now }).ok, true, 'any of several v1 values (a rotation)');
  });
});

// ---- the lint ----------------------------------------------------------------------------

const SRC = path.resolve(import.meta.dirname, '../../src');
const HELPER = path.join('security', 'compare.ts');
/** Where "token" is a robots.txt user-agent token and no secret of ours is held. */
const NO_SECRETS_HERE = [`scanner${path.sep}`, `cli${path.sep}`];
const SECRET_NAME = /(token|secret|password|signature|digest|hmac|\bmac\b|hash|bearer|apikey)/i;
const COMPARISON = /([\w.#$[\]()'"`-]+)\s*([!=]==?)\s*([\w.#$[\]()'"`-]+)/g;
const HARMLESS_SIDE = /^(undefined|null|true|false|\d+|'[^']*'|"[^"]*"|`[^`]*`)$|\.length$|\.size$/;

const count = (s: string, c: string) => s.split(c).length - 1;

/** A side as matched, without the parentheses that belong to the code around it: `(token` → `token`, `undefined)` → `undefined`. */
function balanced(side: string): string {
  let s = side;
  while (s.startsWith('(') && count(s, '(') > count(s, ')')) s = s.slice(1);
  while (s.endsWith(')') && count(s, ')') > count(s, '(')) s = s.slice(0, -1);
  return s;
}

/** The comparisons on a line of code that put a secret-like name against something that could be a secret. */
export function secretComparisons(line: string): string[] {
  // Comments, and type tests (`typeof token !== 'string'`), compare no secret.
  const code = line.replace(/\/\/.*$/, '').replace(/typeof\s+[\w.#]+\s*[!=]==?\s*'\w+'/g, '');
  const found: string[] = [];
  for (const m of code.matchAll(COMPARISON)) {
    const [all, l, , r] = m as unknown as [string, string, string, string];
    const [left, right] = [balanced(l), balanced(r)];
    if (HARMLESS_SIDE.test(left) || HARMLESS_SIDE.test(right)) continue;
    if (SECRET_NAME.test(left) || SECRET_NAME.test(right)) found.push(all);
  }
  return found;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('no secret is compared any other way (a lint over src/)', () => {
  test('the detector flags the comparisons this service once had, and passes ordinary ones', () => {
    for (const bad of [
      "if (token !== undefined && this.#operatorHash !== undefined && !looksLikeKey(token) && hashKey(token) === this.#operatorHash) return { kind: 'operator' };",
      'return presented === expectedToken;',
      "if (req.query.token === row.manage_token) return row;",
      'const ok = signature !== expected.signature;',
    ]) assert.notDeepEqual(secretComparisons(bad), [], bad);
    for (const fine of [
      'if (token === undefined) throw errors.unauthorized();',
      "if (typeof given !== 'string') return false;",
      "if (key === 't' && /^\\d{1,12}$/.test(value)) timestamp = Number(value);",
      'if (row.key_id !== key.keyId) throw GONE_404();',
      'const all = moving.length === g.tokens.length;',
    ]) assert.deepEqual(secretComparisons(fine), [], fine);
  });

  test('src/ compares no secret with === or !==, and calls timingSafeEqual only in src/security/compare.ts', () => {
    const offences: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file);
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/timingSafeEqual/.test(line.replace(/\/\/.*$/, '')) && rel !== HELPER) offences.push(`${rel}:${i + 1}: timingSafeEqual outside the helper`);
        if (NO_SECRETS_HERE.some((d) => rel.startsWith(d))) return;
        for (const c of secretComparisons(line)) offences.push(`${rel}:${i + 1}: ${c}`);
      });
    }
    assert.deepEqual(offences, [], 'compare secrets with secretsEqual (src/security/compare.ts)');
  });
});
