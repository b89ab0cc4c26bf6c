// Acceptance on the embedded default: the real service (src/main.js on a SQLite file, no
// Redis) scans a batch of 200 world domains made by a key from the operator endpoint; it is
// SIGKILLed mid-batch and started again on the same files, and the batch finishes: one row per
// distinct valid domain, each report served, CSV and NDJSON the same rows, the summary's
// headline counts and scores recomputed from the results, and no item archived twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { startWorld, type World } from '../world/index.ts';

const TOKEN = 'operator-token-0123456789';
const SCENARIOS = ['open-basic', 'generic-403-all-agents', 'robots-blocks-all', 'robots-blocks-edge-open', 'robots-partial'];
const tag = String(Date.now() % 100_000);
const domains = Array.from({ length: 200 }, (_, i) => `${SCENARIOS[i % SCENARIOS.length]}--${tag}${i}.world-fixtures.com`);

describe('a 200-domain batch on the embedded default survives a SIGKILL and a restart', () => {
  let world: World;
  let svc: Child;
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'batch-world-'));
    world = await startWorld();
    env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail'), OPERATOR_TOKEN: TOKEN, BASE_URL: 'http://batch.test',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
      // Every world site answers at one address: the per-address bound would run this batch two
      // at a time; eight keeps the test short and still exercises the bound.
      FLEET_PER_ADDRESS_CONCURRENCY: '8', WORKER_CONCURRENCY: '8', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
    };
    svc = await spawnService(env, { timeoutMs: 120_000 });
  });
  after(async () => {
    await svc?.stop();
    await world?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string, auth: string, accept = 'application/json') => rawRequest(svc.url, { method: 'GET', path: p, headers: { Authorization: `Bearer ${auth}`, Accept: accept }, timeoutMs: 60_000 });

  test('the batch finishes after a restart, each domain once', async () => {
    const keyRes = await rawRequest(svc.url, { method: 'POST', path: '/internal/api-keys', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'World Partner', dailyScans: 1000 }) });
    assert.equal(keyRes.status, 201, keyRes.text);
    const { key } = JSON.parse(keyRes.text) as { key: string };
    const body = [...domains, domains[0]!, domains[1]!.toUpperCase(), 'not a domain', '127.0.0.1'].join('\n');
    const created = await rawRequest(svc.url, { method: 'POST', path: '/batches?label=world', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain' }, body, timeoutMs: 60_000 });
    conforms(created);
    assert.equal(created.status, 202, created.text);
    const accepted = JSON.parse(created.text) as { batchId: string; total: number; duplicates: number; rejected: unknown[] };
    assert.deepEqual([accepted.total, accepted.duplicates, accepted.rejected.length], [200, 2, 2]);
    const id = accepted.batchId;

    const progress = async () => JSON.parse((await get(`/batches/${id}`, key)).text) as { status: string; done: number; failed: number; pending: number };
    const stop = Date.now() + 300_000;
    while ((await progress()).done < 30) {
      if (Date.now() > stop) assert.fail('the batch never got going');
      await new Promise((r) => setTimeout(r, 200));
    }
    await svc.stop('SIGKILL');
    svc = await spawnService(env, { timeoutMs: 120_000 });
    let p = await progress();
    while (p.status !== 'done') {
      if (Date.now() > stop) assert.fail(`the batch did not finish after the restart: ${JSON.stringify(p)}`);
      await new Promise((r) => setTimeout(r, 500));
      p = await progress();
    }
    assert.equal(p.done + p.failed, 200);

    const nd = await get(`/batches/${id}/results`, key, 'application/x-ndjson');
    conforms(nd);
    const rows = nd.text.trim().split('\n').map((l) => JSON.parse(l) as { domain: string; state: string; scanId: string; reportUrl: string; headline: string; score: number | null });
    assert.deepEqual(rows.map((r) => r.domain), domains, 'one row per distinct valid domain, in order');
    assert.ok(rows.every((r) => r.state === 'done'), rows.filter((r) => r.state !== 'done').map((r) => JSON.stringify(r)).join('\n'));
    const csv = await get(`/batches/${id}/results?format=csv`, key, 'text/csv');
    conforms(csv);
    const csvRows = csv.text.trim().split('\n').slice(1).map((l) => l.split(','));
    assert.deepEqual(csvRows.map((c) => [c[0], c[1], c[2], c[4]]), rows.map((r) => [r.domain, r.state, r.scanId, r.headline]));

    for (const r of rows.filter((_, i) => i % 10 === 0)) {
      const page = await rawRequest(svc.url, { method: 'GET', path: new URL(r.reportUrl).pathname, headers: { Accept: 'application/json' } });
      assert.equal(page.status, 200);
      assert.equal((JSON.parse(page.text) as { scanId: string }).scanId, r.scanId);
    }

    const summary = await get(`/batches/${id}/summary`, key);
    conforms(summary);
    const s = JSON.parse(summary.text) as { headlines: Record<string, number>; score: { scored: number; mean: number } };
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.headline] = (counts[r.headline] ?? 0) + 1;
    assert.deepEqual(s.headlines, Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b))));
    const scores = rows.map((r) => r.score).filter((x): x is number => x !== null);
    assert.equal(s.score.scored, scores.length);
    assert.equal(s.score.mean, Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100);

    // No item archived twice: one archived scan per domain of the batch.
    const db = knex({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'db.sqlite') }, useNullAsDefault: true });
    try {
      const archived = await db('scans').whereIn('domain', domains).groupBy('domain').select('domain').count({ n: '*' });
      assert.equal(archived.length, 200);
      assert.ok(archived.every((a) => Number(a.n) === 1), JSON.stringify(archived.filter((a) => Number(a.n) !== 1)));
    } finally {
      await db.destroy();
    }
  });
});
