// GET /api/checks through the real app: the catalog conforms to openapi.yaml and equals the registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { validateCheckCatalog } from '../../generated/validators.js';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { RUBRICS, rubricOf } from '../../src/scanner/rubrics.ts';
import { PREVIEW_RUBRIC_VERSION, RUBRIC_VERSION } from '../../src/scanner/versions.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

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

test('GET /api/checks?rubric=rubric-v1.2-preview lists the preview: every current check at its weight, then the added ones, with what changed', async () => {
  const res = await request(t.app).get(`/api/checks?rubric=${PREVIEW_RUBRIC_VERSION}`).expect(200).expect(conforms);
  assert.ok(validateCheckCatalog(res.body), JSON.stringify(validateCheckCatalog.errors));
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(buildCatalog(rubricOf(PREVIEW_RUBRIC_VERSION)))));
  assert.equal(res.body.stage, 'preview');
  const current = buildCatalog();
  const byId = new Map(res.body.checks.map((c: { id: string; weight: number }) => [c.id, c.weight]));
  for (const c of current.checks) assert.equal(byId.get(c.id), c.weight, `${c.id} keeps its weight`);
  assert.ok(Array.isArray(res.body.changes));
  const added = (res.body.changes ?? []).filter((c: { change: string }) => c.change === 'added').map((c: { checkId: string }) => c.checkId);
  assert.deepEqual(added, res.body.checks.slice(current.checks.length).map((c: { id: string }) => c.id));
  for (const id of ['trust.web-bot-auth', 'policy.preferences-agree', 'discovery.llms-txt-v2', 'discovery.ard', 'discovery.a2a-card-v1', 'discovery.mcp-card-shape', 'access.payment-offers']) assert.ok(added.includes(id), id);
});

test('GET /api/checks?rubric= names the current rubric the same as no parameter', async () => {
  const res = await request(t.app).get(`/api/checks?rubric=${RUBRIC_VERSION}`).expect(200);
  assert.equal(res.body.stage, 'current');
  assert.equal(res.body.changes, undefined);
});

test('GET /api/checks with an unknown rubric is a 400 in the Error shape', async () => {
  const res = await request(t.app).get('/api/checks?rubric=rubric-v9').expect(400).expect(conforms);
  assert.equal(typeof res.body.error, 'string');
  assert.match(`${res.body.error} ${res.body.hint ?? ""}`, /rubric/, JSON.stringify(res.body));
});

test('the rubric enum of openapi.yaml lists exactly the published rubrics', () => {
  const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
  const param = doc.paths['/api/checks'].get.parameters.find((p: { name: string }) => p.name === 'rubric');
  assert.deepEqual(param.schema.enum, RUBRICS.map((r) => r.version));
});
