// GET /health reports the job engine's state on both engines, from faults injected for real:
// the embedded engine's queue file write-locked by another process, and a Redis that does not
// answer (a port nothing listens on: the machine's shared Redis is never stopped). Each
// recovers by itself, and /health says so.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp } from '../helpers/app.ts';
import { log, REDIS, until } from './engines.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-health-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const health = async (app: Parameters<typeof request>[0]) => (await request(app).get('/health').expect(200).expect(conforms)).body as Record<string, unknown>;

describe('GET /health and the job engine', () => {
  test('embedded: degraded with the reason while its file is locked, ok again after', async () => {
    const file = path.join(dir, 'health.jobs.sqlite');
    const jobs = new EmbeddedJobEngine({ file, log, pollMs: 20, busyTimeoutMs: 20 });
    const t = await testApp({ LOG_LEVEL: 'silent' }, {}, { jobs });
    try {
      assert.equal((await health(t.app)).jobs, 'ok');
      const other = new Database(file, { timeout: 0 });
      other.exec('begin immediate');
      try {
        await until(async () => (await health(t.app)).jobs === 'degraded', '/health to say degraded');
        const body = await health(t.app);
        assert.equal(body.ok, true, 'the service itself still serves');
        assert.match(String(body.jobsReason), /locked by another process/);
      } finally {
        other.exec('rollback');
        other.close();
      }
      await until(async () => (await health(t.app)).jobs === 'ok', '/health to say ok again');
      assert.equal((await health(t.app)).jobsReason, undefined);
    } finally {
      await t.close();
    }
  });

  test('distributed: degraded while Redis does not answer, ok once it does', { skip: REDIS ? false : 'TEST_REDIS_URL is not set' }, async () => {
    // A TCP proxy to the real Redis that the test cuts and restores.
    const target = new URL(REDIS!);
    let open = true;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      if (!open) return client.destroy();
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const close = () => { client.destroy(); upstream.destroy(); };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as net.AddressInfo).port;
    const jobs = new DistributedJobEngine({ redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: `thealth-${port}:`, log, healthEveryMs: 200 });
    const t = await testApp({ LOG_LEVEL: 'silent' }, {}, { jobs, batches: false, watches: false, webhooks: false });
    try {
      await until(async () => (await health(t.app)).jobs === 'ok', '/health to say ok');
      open = false;
      for (const s of sockets) s.destroy();
      await until(async () => (await health(t.app)).jobs === 'degraded', '/health to say degraded');
      assert.match(String((await health(t.app)).jobsReason), /redis does not answer/);
      open = true;
      await until(async () => (await health(t.app)).jobs === 'ok', '/health to say ok again', 30_000);
    } finally {
      await t.close();
      for (const s of sockets) s.destroy();
      proxy.close();
    }
  });
});
