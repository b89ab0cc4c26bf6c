// Redis disappears under a running instance (its own redis-server, killed and restarted).
// Documented behaviour (README "Running several instances"): the instance keeps serving;
// rate limits fall back to a per-instance in-memory limiter (never open, never closed),
// the 45-second window of just-completed results is skipped (a repeat scans afresh, within
// the limits); when Redis returns, sharing resumes. No crash, no 5xx.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { conforms } from '../helpers/contract.ts';
import { noRedisServer, startRedisServer, type OwnRedis } from '../helpers/redis-server.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { countingScanner } from '../hostile/lib/hostile-app.ts';

const skip = noRedisServer;
const opt = skip ? { skip } : {};
const lead = { name: 'Redis Fault', email: 'redis@redis-fault.com' };

describe('fault: Redis disappears and comes back', () => {
  let redis: OwnRedis | undefined;
  let t: TestApp;
  let server: http.Server;
  let url = '';
  const scanner = countingScanner();

  before(async () => {
    if (skip) return;
    redis = await startRedisServer();
    t = await testApp(
      { REDIS_URL: redis.url, RATE_LIMIT_PER_IP: '4/1800', RATE_LIMIT_PER_DOMAIN: '100/1', SCAN_RESOLVE: '*.redis-fault.com=11.22.33.44' },
      {},
      { scanner },
    );
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    if (skip) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.close();
    await redis?.stop();
  });

  const scan = async (domain: string) => {
    const res = await rawRequest(url, { method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead }), timeoutMs: 30_000 });
    conforms(res);
    return res;
  };

  test('with Redis up, scans are served and counted against the shared limit', opt, async () => {
    const res = await scan('one.redis-fault.com');
    assert.equal(res.status, 200, res.text);
  });

  test('Redis killed: scans still answer 200, /health answers, nothing crashes', opt, async () => {
    await redis!.kill();
    const res = await scan('two.redis-fault.com');
    assert.equal(res.status, 200, res.text);
    // The just-completed cache lives in Redis: without it a repeat is a fresh scan (within
    // the limits), never an error.
    const again = await scan('two.redis-fault.com');
    assert.equal(again.status, 200, again.text);
    const health = await rawRequest(url, { method: 'GET', path: '/health' });
    conforms(health);
    assert.equal(health.status, 200);
  });

  test('Redis down: the per-IP limit still holds on this instance (in-memory fallback, never open)', opt, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await scan(`limit${i}.redis-fault.com`)).status);
    assert.ok(statuses.includes(429), `no 429 without Redis: ${statuses.join(', ')}`);
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(', '));
  });

  test('Redis back on the same port: the instance reconnects and keeps serving', opt, async () => {
    await redis!.restart();
    const until = Date.now() + 10_000;
    let status = 0;
    // The per-IP budget may be spent; a 429 is an answer too. What matters is no 5xx and no crash.
    while (Date.now() < until) {
      const res = await scan('back.redis-fault.com');
      status = res.status;
      if (status === 200 || status === 429) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(status === 200 || status === 429, `status ${status}`);
  });
});
