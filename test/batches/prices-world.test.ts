// A batch's summary over real world scans says who is charged, how much, and who is served free
// (issue 36 item 5): the service process scans sites that answer some agent 402, and the summary
// (validated against openapi.yaml) and its page carry the prices.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { startWorld, type World } from '../world/index.ts';

const TOKEN = 'operator-token-0123456789';
const tag = String(Date.now() % 100_000);
const domains = ['price-one-agent', 'price-one-agent', 'price-x402', 'open-basic'].map((s, i) => `${s}--${tag}${i}.world-fixtures.com`);

let world: World;
let svc: Child;
let dir: string;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'batch-prices-'));
  world = await startWorld();
  svc = await spawnService({
    DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail'), OPERATOR_TOKEN: TOKEN, BASE_URL: 'http://batch.test',
    NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
    FLEET_PER_ADDRESS_CONCURRENCY: '4', WORKER_CONCURRENCY: '4', SCAN_DEADLINE_MS: '10000', LOG_LEVEL: 'warn',
  }, { timeoutMs: 120_000 });
});
after(async () => {
  await svc?.stop();
  await world?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the summary counts the charging sites, each agent\'s prices and the agents served free', async () => {
  const keyRes = await rawRequest(svc.url, { method: 'POST', path: '/internal/api-keys', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Prices', dailyScans: 100 }) });
  assert.equal(keyRes.status, 201, keyRes.text);
  const { key } = JSON.parse(keyRes.text) as { key: string };
  const get = (p: string, accept = 'application/json') => rawRequest(svc.url, { method: 'GET', path: p, headers: { Authorization: `Bearer ${key}`, Accept: accept }, timeoutMs: 60_000 });
  const created = await rawRequest(svc.url, { method: 'POST', path: '/batches', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ domains }), timeoutMs: 60_000 });
  conforms(created);
  const id = (JSON.parse(created.text) as { batchId: string }).batchId;
  const stop = Date.now() + 240_000;
  for (;;) {
    const p = JSON.parse((await get(`/batches/${id}`)).text) as { status: string };
    if (p.status === 'done') break;
    if (Date.now() > stop) assert.fail(`the batch did not finish: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const res = await get(`/batches/${id}/summary`);
  conforms(res);
  const prices = (JSON.parse(res.text) as { prices?: { sites: number; chargeSomeServeOthersFree: number; agents: Array<{ ua: string; charged: number; servedFreeByChargingSites: number; prices: Array<{ price: string; sites: number }> }>; sentence: string } }).prices;
  assert.ok(prices, res.text);
  assert.equal(prices.sites, 3);
  assert.equal(prices.chargeSomeServeOthersFree, 3);
  const agent = (ua: string) => prices.agents.find((a) => a.ua === ua);
  assert.deepEqual(agent('GPTBot'), { ua: 'GPTBot', charged: 2, servedFreeByChargingSites: 1, prices: [{ price: 'USD 0.01 per request', sites: 2 }] });
  assert.deepEqual(agent('ClaudeBot')?.prices, [{ price: '0.005 USDC', sites: 1 }]);
  assert.deepEqual(agent('CCBot')?.prices, [{ price: '0.02 USDC', sites: 1 }]);
  assert.equal(agent('PerplexityBot')?.servedFreeByChargingSites, 3);
  assert.match(prices.sentence, /^3 sites charge some agents, 3 of them serving others free\. Charged: GPTBot on 2 sites \(USD 0\.01 per request\); CCBot on 1 site \(0\.02 USDC\); ClaudeBot on 1 site \(0\.005 USDC\)\. Served free wherever asked: /);
  const page = await get(`/batches/${id}/summary`, 'text/html');
  assert.equal(page.status, 200);
  assert.match(page.text, /<h2 id="prices">Who is charged<\/h2>/);
});
