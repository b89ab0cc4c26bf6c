// Several instances sharing Redis: rate limits and coalescing must hold across them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../../src/errors.ts';
import { ScanAdmission } from '../../src/scans/admission.ts';
import { Coalescer, redisRecentStore } from '../../src/scans/coalesce.ts';
import { createScanLimits } from '../../src/scans/limits.ts';
import { ScanService } from '../../src/scans/service.ts';
import { createTurnstileGate } from '../../src/scans/turnstile.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { fakeResolver, fakeScanner, silentLog, type FakeScanner } from './fixtures.ts';

const url = process.env.TEST_REDIS_URL;
if (!url) console.warn('SKIPPING shared-Redis scan tests: TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379)');

const lead = { name: 'Ada Lovelace', email: 'ada@redis-site.com' };

describe('scan limits and coalescing shared through Redis', { skip: url ? false : 'TEST_REDIS_URL is not set' }, () => {
  let t: TestDb;
  const clients: Redis[] = [];
  const run = randomBytes(4).toString('hex');
  before(async () => { t = await openTestDb('sqlite'); });
  after(async () => {
    for (const c of clients) {
      const keys = await c.keys(`t${run}:*`);
      if (keys.length) await c.del(...keys);
      c.disconnect();
    }
    await t.close();
  });

  function instance(scanner: FakeScanner, perIp = 1000): ScanService {
    const redis = new Redis(url!, { lazyConnect: false, maxRetriesPerRequest: 1 });
    clients.push(redis);
    return new ScanService({
      db: t.db, log: silentLog, now: () => new Date(), baseUrl: 'http://localhost:8080', excludedDomains: [], scanner, resolve: fakeResolver(),
      limits: createScanLimits({ perDomain: { points: 3, durationS: 60 }, perIp: { points: perIp, durationS: 1800 }, redis, prefix: `t${run}:rl` }),
      coalescer: new Coalescer({ windowMs: 45_000, store: redisRecentStore(redis, `t${run}:recent`), nowMs: () => Date.now(), redis, prefix: `t${run}:flight`, lockTtlMs: 10_000, pollMs: 20 }),
      admission: new ScanAdmission(), turnstile: createTurnstileGate(undefined, 'http://127.0.0.1:9'), deadlineMs: 5000, mailPerRecipientPerDay: 3,
    });
  }

  test('redis: 30 identical requests spread over three instances run one upstream scan', async () => {
    // The upstream scan is held until it has started, not for a fixed time: requests that
    // arrive later on a loaded machine join it or find its finished result.
    const scanner = fakeScanner({ held: true });
    const instances = [instance(scanner), instance(scanner), instance(scanner)];
    const pending = Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3]!.scan({ domain: 'shared-redis-site.com', lead, clientIp: '192.0.2.10' })));
    const until = Date.now() + 30_000;
    while (scanner.calls.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    scanner.release();
    const outs = await pending;
    assert.equal(scanner.calls.length, 1);
    assert.equal(outs.filter((o) => !o.body.coalesced).length, 1);
    assert.equal(new Set(outs.map((o) => o.body.scanId)).size, 1);
  });

  test('redis: a result completed on one instance is served coalesced by another', async () => {
    const scanner = fakeScanner();
    const [a, b] = [instance(scanner), instance(scanner)];
    const first = await a.scan({ domain: 'handoff-redis-site.com', lead, clientIp: '192.0.2.11' });
    const second = await b.scan({ domain: 'handoff-redis-site.com', lead, clientIp: '192.0.2.12' });
    assert.equal(second.body.coalesced, true);
    assert.equal(second.body.scanId, first.body.scanId);
    assert.equal(second.body.cliUploadToken, undefined);
    assert.equal(scanner.calls.length, 1);
  });

  test('redis: the per-domain burst holds across instances under concurrency', async () => {
    const scanner = fakeScanner();
    const instances = [instance(scanner), instance(scanner)];
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => instances[i % 2]!.scan({ domain: 'burst-redis-site.com', lead, clientIp: `192.0.2.${20 + i}`, fresh: true })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
    for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as AppError).status, 429);
  });

  test('redis: the per-IP limit holds across instances', async () => {
    const scanner = fakeScanner();
    const instances = [instance(scanner, 5), instance(scanner, 5)];
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => instances[i % 2]!.scan({ domain: `ip${i}-redis-site.com`, lead, clientIp: '198.51.100.99' })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
  });
});
