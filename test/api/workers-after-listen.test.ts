// The service's background workers (batch items, webhook deliveries) start only once its
// listener is up, so loading the job engine and re-enqueueing open work never delays the first
// answer; a service closed before then starts none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import type { JobEngine } from '../../src/jobs/port.ts';
import { startService, type RunningService } from '../../src/server.ts';

const config = () => loadConfig({
  PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', BASE_URL: 'http://127.0.0.1', NETWORK_A_PROXY: 'http://127.0.0.1:9', NETWORK_B_PROXY: 'http://127.0.0.1:9', LOG_LEVEL: 'silent',
});

/** A job engine that records, for each queue a worker starts on, whether the service was listening then. */
function recordingEngine(listening: () => boolean): JobEngine & { started: Array<[string, boolean]> } {
  const started: Array<[string, boolean]> = [];
  return {
    kind: 'embedded', started,
    enqueue: async () => undefined, enqueueMany: async () => undefined, cancel: async () => undefined, close: async () => undefined, health: () => ({ state: 'ok' }), counts: async () => [],
    process: (queue) => { started.push([queue, listening()]); },
  };
}

test('the workers start after the listener, each once', async () => {
  let svc: RunningService | undefined;
  const jobs = recordingEngine(() => svc?.server.listening === true);
  svc = await startService(config(), pino({ level: 'silent' }), { jobs });
  // Closed whatever happens: a listening server left open would hold this file's process
  // alive after a failed assertion.
  try {
    assert.equal(jobs.started.length, 0, 'nothing started while start-up ran');
    const queues = ['batch-items', 'change-prunes', 'watch-runs', 'watch-sweeps', 'webhook-deliveries'];
    const stop = Date.now() + 30_000;
    while (jobs.started.length < queues.length) {
      if (Date.now() > stop) assert.fail(`the workers never started: ${JSON.stringify(jobs.started)}`);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(jobs.started.every(([, l]) => l), JSON.stringify(jobs.started));
    assert.deepEqual(jobs.started.map(([q]) => q).sort(), queues);
  } finally {
    await svc.close();
  }
});

test('a service closed before its workers started never starts them', async () => {
  const jobs = recordingEngine(() => true);
  const svc = await startService(config(), pino({ level: 'silent' }), { jobs });
  await svc.close();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(jobs.started, []);
});
