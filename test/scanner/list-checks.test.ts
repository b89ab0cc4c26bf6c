// GET /api/checks through the real app: the catalog conforms to openapi.yaml and equals the registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { validateCheckCatalog } from '../../generated/validators.js';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { RUBRIC_VERSION } from '../../src/scanner/versions.ts';

let t: TestApp;
before(async () => { t = await testApp(); });
after(async () => { await t.close(); });

test('GET /api/checks serves the registry catalog, conforming to the contract, CORS-open', async () => {
  const res = await request(t.app).get('/api/checks').set('Origin', 'https://elsewhere-fixtures.com').expect(200).expect(conforms);
  assert.ok(validateCheckCatalog(res.body), JSON.stringify(validateCheckCatalog.errors));
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(buildCatalog())));
  assert.equal(res.body.rubricVersion, RUBRIC_VERSION);
  assert.ok(res.headers['access-control-allow-origin'], 'the catalog is CORS-enabled');
});
