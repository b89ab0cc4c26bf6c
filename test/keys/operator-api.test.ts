// The operator's key endpoints over HTTP (outside the public contract, like every /internal
// route) and the `npm run keys` command on the same database file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';

const TOKEN = 'operator-token-0123456789';
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('POST/GET/DELETE /internal/api-keys', () => {
  let t: TestApp;
  before(async () => { t = await testApp({ OPERATOR_TOKEN: TOKEN }); });
  after(() => t.close());
  const op = (r: request.Test) => r.set('Authorization', `Bearer ${TOKEN}`);

  test('the operator creates a key (201, shown once), lists it without the key, revokes it (204, then 404)', async () => {
    const created = await op(request(t.app).post('/internal/api-keys')).send({ name: 'Acme Agency', dailyScans: 250 }).expect(201);
    assert.deepEqual(Object.keys(created.body).sort(), ['key', 'keyId']);
    assert.equal((await t.services.keys.authenticate(`Bearer ${created.body.key}`)).keyId, created.body.keyId);
    const listed = await op(request(t.app).get('/internal/api-keys')).expect(200);
    const mine = listed.body.keys.find((k: { keyId: string }) => k.keyId === created.body.keyId);
    assert.deepEqual({ ...mine, createdAt: 'x' }, { keyId: created.body.keyId, name: 'Acme Agency', dailyScans: 250, createdAt: 'x', revokedAt: null });
    assert.ok(!listed.text.includes(created.body.key), 'the list never carries a key');
    await op(request(t.app).delete(`/internal/api-keys/${created.body.keyId}`)).expect(204);
    const again = await op(request(t.app).delete(`/internal/api-keys/${created.body.keyId}`)).expect(404);
    assert.match(again.body.error, /No live API key/);
    await assert.rejects(t.services.keys.authenticate(`Bearer ${created.body.key}`), /revoked/);
  });

  test('bad bodies are 400s in the Error shape', async () => {
    for (const body of [{}, { name: 'x' }, { name: 'x', dailyScans: '5' }, { name: '', dailyScans: 5 }, { name: 'x', dailyScans: 0 }, { name: 'x', dailyScans: 2.5 }]) {
      const res = await op(request(t.app).post('/internal/api-keys')).send(body).expect(400);
      assert.equal(typeof res.body.error, 'string', JSON.stringify(body));
    }
    const broken = await op(request(t.app).post('/internal/api-keys')).set('Content-Type', 'application/json').send('{"name":').expect(400);
    assert.equal(typeof broken.body.error, 'string');
  });

  test('without the operator token: 401 with WWW-Authenticate: Bearer; a partner key is not the operator', async () => {
    const created = await op(request(t.app).post('/internal/api-keys')).send({ name: 'Partner', dailyScans: 5 }).expect(201);
    for (const auth of [undefined, 'Bearer wrong-token-000000000', `Bearer ${created.body.key}`] as Array<string | undefined>) {
      const r = request(t.app).post('/internal/api-keys').send({ name: 'Sneaky', dailyScans: 5 });
      const res = await (auth ? r.set('Authorization', auth) : r).expect(401);
      assert.match(String(res.headers['www-authenticate']), /^Bearer /);
      assert.equal(typeof res.body.error, 'string');
    }
  });

  test('with no OPERATOR_TOKEN configured the endpoints do not exist', async () => {
    const off = await testApp();
    try {
      await request(off.app).post('/internal/api-keys').send({ name: 'x', dailyScans: 5 }).expect(404);
    } finally {
      await off.close();
    }
  });
});

describe('npm run keys', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'keys-cli-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const keys = (...args: string[]) => run(process.execPath, [path.join(root, 'scripts/keys.ts'), ...args], { cwd: root, env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}` } });

  test('create prints the key once; list shows it live without the key; revoke revokes it', async () => {
    const created = JSON.parse((await keys('create', '--name', 'CLI Partner', '--daily-scans', '40', '--json')).stdout) as { keyId: string; key: string };
    assert.match(created.key, /^ark_/);
    const human = await keys('create', '--name', 'Second', '--daily-scans', '7');
    assert.match(human.stdout, /key: +ark_[A-Za-z0-9_-]{43}\n/);
    assert.match(human.stdout, /shown this once/);
    const listed = (await keys('list')).stdout;
    assert.match(listed, new RegExp(`${created.keyId} +40/day +live .* CLI Partner`));
    assert.ok(!listed.includes(created.key));
    assert.match((await keys('revoke', created.keyId)).stdout, /Revoked/);
    const after = JSON.parse((await keys('list', '--json')).stdout) as Array<{ keyId: string; revokedAt: string | null }>;
    assert.notEqual(after.find((k) => k.keyId === created.keyId)?.revokedAt, null);
  });

  test('usage errors exit 1 and say what is wrong', async () => {
    for (const args of [[], ['create', '--name', 'x'], ['create', '--name', 'x', '--daily-scans', 'lots'], ['revoke'], ['frobnicate'], ['create', '--bogus']]) {
      await assert.rejects(keys(...args), (err: { code: number; stderr: string }) => err.code === 1 && /Usage:/.test(err.stderr), args.join(' '));
    }
    await assert.rejects(keys('revoke', 'key_unknown'), (err: { code: number; stderr: string }) => err.code === 1 && /No live key/.test(err.stderr));
  });
});
