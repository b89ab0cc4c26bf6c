// Faults, injected: a process SIGKILLed mid-job (the job completes once, after a restart on
// the embedded engine, on another process on the distributed one), a poison job that kills
// every process that runs it (given up after LOST_RUNS lost runs, reported once through
// onFailed), and a Redis that cannot be reached (enqueueing fails loudly and quickly, never
// waits; health() says degraded).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { JobEngineUnavailable, LOST_RUNS } from '../../src/jobs/port.ts';
import { log, REDIS, until } from './engines.ts';
import { reapOnExit } from '../../bench/lib/child.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-crash-'));
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

function child(env: Record<string, string>): ChildProcess {
  const c = reapOnExit(spawn(process.execPath, [path.join(import.meta.dirname, 'child-worker.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] }));
  children.push(c);
  return c;
}
const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : []);
const killed = (c: ChildProcess) => new Promise<void>((resolve) => {
  c.once('exit', () => resolve());
  c.kill('SIGKILL');
});

describe('a job whose process is SIGKILLed mid-run completes once', () => {
  test('embedded: after a restart on the same file', async () => {
    const LOG = path.join(dir, 'embedded.log');
    const GO = path.join(dir, 'embedded.go');
    // The claim of a dead process lapses after the run's timeout and the grace (3 + 0.5 s).
    const env = { KIND: 'embedded', FILE: path.join(dir, 'jobs.sqlite'), LOG, GO, TIMEOUT_MS: '3000' };
    const a = child({ ...env, ENQUEUE: 'job-e1' });
    await until(() => lines(LOG).some((l) => l.startsWith('start job-e1')), 'the first run');
    await killed(a);
    fs.writeFileSync(GO, '');
    child(env);
    await until(() => lines(LOG).some((l) => l.startsWith('done job-e1')), 'the job done after the restart', 60_000);
    const log = lines(LOG);
    assert.equal(log.filter((l) => l.startsWith('done job-e1')).length, 1, log.join('\n'));
    assert.notEqual(log.find((l) => l.startsWith('done'))!.split(' ')[2], String(a.pid), 'done by the restarted process');
  });

  test('distributed: by another instance', { skip: REDIS ? false : 'TEST_REDIS_URL is not set' }, async () => {
    const LOG = path.join(dir, 'distributed.log');
    const GO = path.join(dir, 'distributed.go');
    const PREFIX = `tjobs-crash-${randomBytes(4).toString('hex')}:`;
    const env = { KIND: 'distributed', REDIS_URL: REDIS!, PREFIX, LOG, GO };
    try {
      const a = child({ ...env, ENQUEUE: 'job-d1' });
      await until(() => lines(LOG).some((l) => l.startsWith('start job-d1')), 'the first run');
      const b = child(env);
      await until(() => lines(LOG).includes(`ready ${b.pid}`), 'the second instance');
      await killed(a);
      fs.writeFileSync(GO, '');
      await until(() => lines(LOG).some((l) => l.startsWith('done job-d1')), 'the job done by the other instance', 60_000);
      // Past another lease and stalled check: a second completion would have happened by now.
      await new Promise((r) => setTimeout(r, 4500));
      const log = lines(LOG);
      assert.deepEqual(log.filter((l) => l.startsWith('done')), [`done job-d1 ${b.pid}`], log.join('\n'));
    } finally {
      const redis = new Redis(REDIS!);
      const keys = await redis.keys(`${PREFIX}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

/** Keeps one child running (a new one each time the last dies) until the log has a `gaveup` line. */
async function untilGivenUp(env: Record<string, string>, log: string, first: Record<string, string>): Promise<number> {
  let spawned = 0;
  let current: ChildProcess | undefined;
  const stop = Date.now() + 90_000;
  while (!lines(log).some((l) => l.startsWith('gaveup'))) {
    if (Date.now() > stop) throw new Error(`no give-up after ${spawned} processes:\n${lines(log).join('\n')}`);
    if (!current || current.exitCode !== null || current.signalCode !== null) {
      current = child({ ...env, ...(spawned === 0 ? first : {}) });
      spawned++;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return spawned;
}

describe('a poison job (it kills every process that runs it) is given up once, with the reason', () => {
  test('embedded: each restart claims it again, and the one after the last lost run reports it', async () => {
    const LOG = path.join(dir, 'poison-e.log');
    const env = { KIND: 'embedded', FILE: path.join(dir, 'poison.sqlite'), LOG, GO: path.join(dir, 'never'), POISON: '1', LEASE_MS: '600' };
    await untilGivenUp(env, LOG, { ENQUEUE: 'poison-e' });
    await new Promise((r) => setTimeout(r, 1500));
    const log = lines(LOG);
    assert.equal(log.filter((l) => l.startsWith('start poison-e')).length, LOST_RUNS, log.join('\n'));
    const gaveUp = log.filter((l) => l.startsWith('gaveup'));
    assert.equal(gaveUp.length, 1, log.join('\n'));
    assert.match(gaveUp[0]!, /^gaveup poison-e given up after 3 lost runs/);
  });

  test('distributed: the instance that finds it stalled the last time reports it', { skip: REDIS ? false : 'TEST_REDIS_URL is not set' }, async () => {
    const LOG = path.join(dir, 'poison-d.log');
    const PREFIX = `tjobs-poison-${randomBytes(4).toString('hex')}:`;
    try {
      await untilGivenUp({ KIND: 'distributed', REDIS_URL: REDIS!, PREFIX, LOG, GO: path.join(dir, 'never'), POISON: '1' }, LOG, { ENQUEUE: 'poison-d' });
      await new Promise((r) => setTimeout(r, 1500));
      const log = lines(LOG);
      assert.equal(log.filter((l) => l.startsWith('start poison-d')).length, LOST_RUNS, log.join('\n'));
      const gaveUp = log.filter((l) => l.startsWith('gaveup'));
      assert.equal(gaveUp.length, 1, log.join('\n'));
      assert.match(gaveUp[0]!, /^gaveup poison-d given up after 3 lost runs/);
    } finally {
      const redis = new Redis(REDIS!);
      const keys = await redis.keys(`${PREFIX}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

describe('Redis cannot be reached', () => {
  test('enqueue fails loudly within seconds; it never waits for Redis to come back', async () => {
    // A port nothing listens on: the machine's shared Redis is never stopped.
    const engine = new DistributedJobEngine({ redisUrl: 'redis://127.0.0.1:9', keyPrefix: 'tjobs-down:', log, enqueueTimeoutMs: 1500 });
    try {
      const started = Date.now();
      await assert.rejects(engine.enqueue('q', {}, { jobId: 'never' }), JobEngineUnavailable);
      await assert.rejects(engine.enqueueMany('q', [{ data: {}, opts: { jobId: 'never-2' } }]), JobEngineUnavailable);
      await assert.rejects(engine.cancel('q', 'never'), JobEngineUnavailable);
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
      assert.equal(engine.health().state, 'degraded');
      assert.match(engine.health().reason ?? '', /redis does not answer/);
    } finally {
      await engine.close();
    }
  });
});
