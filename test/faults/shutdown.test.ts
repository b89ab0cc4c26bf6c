// Everything the composition root opens is closed on shutdown: after a started service has
// served reads, an MCP call, the manifest, a scan attempt through both networks and an open
// progress stream, close() leaves no socket, timer, server or connection behind in the process.
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/server.ts';

const REDIS = process.env.TEST_REDIS_URL;

function counts(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

/** Resource kinds with more instances now than at the baseline. */
function grown(baseline: Map<string, number>): string[] {
  return [...counts()].filter(([k, n]) => n > (baseline.get(k) ?? 0)).map(([k, n]) => `${k} x${n - (baseline.get(k) ?? 0)}`);
}

async function until(done: () => boolean, what: () => string, ceilingMs = 30_000): Promise<void> {
  const stop = Date.now() + ceilingMs;
  while (!done()) {
    if (Date.now() > stop) assert.fail(what());
    await new Promise((r) => setImmediate(r));
  }
}

test(`a started and stopped service leaves no open handles${REDIS ? ' (with Redis)' : ''}`, async () => {
  const baseline = counts();
  const svc = await startService(loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', BASE_URL: 'http://127.0.0.1',
    NETWORK_A_PROXY: 'http://127.0.0.1:9', NETWORK_B_PROXY: 'http://127.0.0.1:9', LOG_LEVEL: 'silent',
    ...(REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `test-shutdown-${process.pid}:` } : {}),
  }), pino({ level: 'silent' }));
  const get = async (path: string, init?: RequestInit) => { const r = await fetch(`${svc.url}${path}`, init); await r.arrayBuffer(); return r.status; };
  assert.equal(await get('/health'), 200);
  assert.equal(await get('/.well-known/mcp.json'), 200);
  assert.equal(await get('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }), 200);
  // Both networks' egresses are used (their proxy is a closed port): the scan fails cleanly.
  const scan = await get('/scan', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'example.com', lead: { name: 'Shut Down', email: 'shutdown@example.com' } }) });
  assert.ok([200, 400, 502].includes(scan), `scan answered ${scan}`);
  // A progress stream whose scan never came holds its connection until shutdown ends it.
  const progress = await fetch(`${svc.url}/scan/progress/${randomUUID()}`, { headers: { accept: 'text/event-stream' } });
  assert.equal(progress.status, 200);
  const streamed = progress.text();
  // A grace far longer than the test's pace: only the progress board's drain lets close() end soon.
  await svc.close(20_000);
  assert.match(await streamed, /^retry: 3000/, 'the stream ended cleanly on shutdown');
  await until(() => grown(baseline).length === 0, () => `still open after close(): ${grown(baseline).join(', ')}`);
});
