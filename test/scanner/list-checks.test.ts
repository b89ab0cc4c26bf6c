// GET /api/checks through the real app: each published rubric's catalog (its per-check weight
// table) conforms to openapi.yaml and equals its registry; anything else is a 400 in the Error shape.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { validateCheckCatalog } from '../../generated/validators.js';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { RUBRICS, rubricOf } from '../../src/scanner/rubrics.ts';
import { V12_ADDED, V12_REVISED } from '../../src/scanner/checks/v1.2.ts';
import { CHECKS } from '../../src/scanner/checks/index.ts';
import { PREVIEW_RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION, RUBRIC_VERSION } from '../../src/scanner/versions.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

let t: TestApp;
before(async () => { t = await testApp(); });
after(async () => { await t.close(); });

type Catalog = { rubricVersion: string; stage: string; changes?: Array<{ checkId: string; change: string; weightBefore: number | null; weightAfter: number | null }>; checks: Array<{ id: string; weight: number }> };

test('GET /api/checks serves the current rubric (rubric-v1.2), conforming to the contract, CORS-open', async () => {
  const res = await request(t.app).get('/api/checks').set('Origin', 'https://elsewhere-fixtures.com').expect(200).expect(conforms);
  assert.ok(validateCheckCatalog(res.body), JSON.stringify(validateCheckCatalog.errors));
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(buildCatalog())));
  assert.equal(res.body.rubricVersion, RUBRIC_VERSION);
  assert.equal(res.body.rubricVersion, 'rubric-v1.2');
  assert.ok(res.headers['access-control-allow-origin'], 'the catalog is CORS-enabled');
});

// Each published rubric: its own weight table, its stage, and what it changes against the one it follows.
const TABLE: Array<[string, string, string | null]> = [
  [RUBRIC_VERSION, 'current', PREVIOUS_RUBRIC_VERSION],
  [PREVIOUS_RUBRIC_VERSION, 'previous', null],
  [PREVIEW_RUBRIC_VERSION, 'preview', RUBRIC_VERSION],
];
for (const [version, stage, follows] of TABLE) {
  test(`GET /api/checks?rubric=${version}: its ${stage} weight table, ${follows ? `with its changes against ${follows}` : 'without changes'}`, async () => {
    const res = await request(t.app).get(`/api/checks?rubric=${version}`).expect(200).expect(conforms);
    assert.ok(validateCheckCatalog(res.body), JSON.stringify(validateCheckCatalog.errors));
    const body = res.body as Catalog;
    assert.deepEqual(body, JSON.parse(JSON.stringify(buildCatalog(rubricOf(version)))));
    assert.equal(body.rubricVersion, version);
    assert.equal(body.stage, stage);
    assert.deepEqual(body.checks.map((c) => [c.id, c.weight]), rubricOf(version)!.checks.map((c) => [c.id, c.weight]), 'the weight table is the registry\'s');
    if (!follows) { assert.equal(body.changes, undefined); return; }
    const before = new Map(rubricOf(follows)!.checks.map((c) => [c.id, c.weight]));
    for (const c of body.checks) if (before.has(c.id)) assert.equal(c.weight, before.get(c.id), `${c.id} keeps its weight`);
    const added = (body.changes ?? []).filter((c) => c.change === 'added').map((c) => c.checkId);
    assert.deepEqual(added, body.checks.slice(before.size).map((c) => c.id), 'the added checks come last, in order');
  });
}

test('GET /api/checks?rubric=rubric-v1.2 lists what the release changed against rubric-v1.1: eight checks added at their weights, two judged anew', async () => {
  const res = await request(t.app).get(`/api/checks?rubric=${RUBRIC_VERSION}`).expect(200);
  const changes = (res.body as Catalog).changes!;
  assert.deepEqual(changes.filter((c) => c.change === 'added').map((c) => [c.checkId, c.weightAfter]), V12_ADDED.map((c) => [c.id, c.weight]));
  assert.deepEqual(changes.filter((c) => c.change === 'revised').map((c) => c.checkId), V12_REVISED.map((c) => c.id));
  assert.equal(changes.length, V12_ADDED.length + V12_REVISED.length);
  for (const id of ['trust.web-bot-auth', 'policy.preferences-agree', 'discovery.llms-txt-v2', 'discovery.ard', 'discovery.a2a-card-v1', 'discovery.mcp-card-shape', 'access.payment-offers', 'discovery.agents-md']) {
    assert.ok(changes.some((c) => c.checkId === id && c.change === 'added'), id);
  }
  const old = await request(t.app).get(`/api/checks?rubric=${PREVIOUS_RUBRIC_VERSION}`).expect(200);
  assert.equal((old.body as Catalog).checks.length, CHECKS.length, 'rubric-v1.1 still lists its own 30 checks');
});

// An abuser's and a careless caller's rubrics: the retired preview name, other versions, case, injection, repeats.
const BAD = ['rubric-v9', 'rubric-v1.2-preview', 'rubric-v1.0', 'RUBRIC-V1.2', '', '../../etc/passwd', '<script>', 'rubric-v1.2%00'];
for (const bad of BAD) {
  test(`GET /api/checks?rubric=${JSON.stringify(bad)} is a 400 in the Error shape`, async () => {
    const res = await request(t.app).get('/api/checks').query({ rubric: bad }).expect(400).expect(conforms);
    assert.equal(typeof res.body.error, 'string');
    assert.match(`${res.body.error} ${res.body.hint ?? ''}`, /rubric/, JSON.stringify(res.body));
    assert.doesNotMatch(JSON.stringify(res.body), /<script>/);
  });
}

test('GET /api/checks with rubric given twice is a 400, not the default catalog', async () => {
  const res = await request(t.app).get(`/api/checks?rubric=${RUBRIC_VERSION}&rubric=${PREVIOUS_RUBRIC_VERSION}`);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(typeof res.body.error, 'string');
});

test('the rubric enum of openapi.yaml lists exactly the published rubrics', () => {
  const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
  const param = doc.paths['/api/checks'].get.parameters.find((p: { name: string }) => p.name === 'rubric');
  assert.deepEqual(param.schema.enum, RUBRICS.map((r) => r.version));
});
