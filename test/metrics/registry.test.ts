// ServiceMetrics alone (src/metrics/registry.ts): a registry per instance (two never share a
// figure), label values kept to their sets, scans timed and counted by what they reached, a
// refusal not counted as a scan, and the job gauges left out (engine down) rather than stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import parse from 'parse-prometheus-text-format';
import { register as globalRegistry } from 'prom-client';
import { errors } from '../../src/errors.ts';
import type { JobEngine, QueueCounts } from '../../src/jobs/port.ts';
import { ServiceMetrics, timedScan } from '../../src/metrics/registry.ts';

function engine(counts: () => Promise<QueueCounts[]>, state: 'ok' | 'degraded' = 'ok'): JobEngine {
  return {
    kind: 'embedded', enqueue: async () => undefined, enqueueMany: async () => undefined, cancel: async () => undefined,
    process: () => undefined, health: () => ({ state }), counts, close: async () => undefined,
  };
}
const sample = (text: string, name: string, labels: Record<string, string> = {}) =>
  parse(text).find((f) => f.name === name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

test('two instances in one process keep their own counters', async () => {
  const a = new ServiceMetrics({ jobs: engine(async () => []), queues: [] });
  const b = new ServiceMetrics({ jobs: engine(async () => []), queues: [] });
  a.mail('sent');
  a.mail('sent');
  b.mail('given-up');
  assert.equal(sample((await a.scrape()).text, 'agent_readiness_mail_total', { result: 'sent' })?.value, '2');
  assert.equal(sample((await b.scrape()).text, 'agent_readiness_mail_total', { result: 'sent' })?.value, '0');
  assert.equal(sample((await b.scrape()).text, 'agent_readiness_mail_total', { result: 'given-up' })?.value, '1');
  assert.deepEqual(await globalRegistry.getMetricsAsJSON(), [], 'prom-client\'s global registry is never used');
});

test('scans: counted by headline, an unknown headline as other, a failure as error, a 4xx refusal not at all', async () => {
  const m = new ServiceMetrics({ jobs: engine(async () => []), queues: [] });
  await timedScan(m, 'site', async () => ({ headline: 'agent-hostile' }), (r) => r.headline);
  await timedScan(m, 'site', async () => ({ headline: 'shop.example.com' }), (r) => r.headline);
  await assert.rejects(timedScan(m, 'site', async () => { throw new Error('proxy down'); }, () => 'x'));
  await assert.rejects(timedScan(m, 'mcp', async () => { throw errors.badRequest('not a target'); }, () => 'x'));
  const text = (await m.scrape()).text;
  assert.equal(sample(text, 'agent_readiness_scans_total', { kind: 'site', headline: 'agent-hostile' })?.value, '1');
  assert.equal(sample(text, 'agent_readiness_scans_total', { kind: 'site', headline: 'other' })?.value, '1');
  assert.equal(sample(text, 'agent_readiness_scans_total', { kind: 'site', headline: 'error' })?.value, '1');
  assert.equal(sample(text, 'agent_readiness_scans_total', { kind: 'mcp' }), undefined, 'the refusal is no scan');
  assert.equal(sample(text, 'agent_readiness_scan_duration_seconds')?.count, '3');
  assert.ok(!text.includes('shop.example.com'));
});

test('job gauges: read at each scrape; left out with the engine down, and job_engine_up 0', async () => {
  let n = 3;
  let down = false;
  const m = new ServiceMetrics({ jobs: engine(async () => { if (down) throw new Error('redis gone'); return [{ queue: 'batch-items', waiting: n, active: 1, delayed: 2 }]; }), queues: ['batch-items'] });
  assert.equal(sample((await m.scrape()).text, 'agent_readiness_jobs_waiting', { queue: 'batch-items' })?.value, '3');
  n = 7;
  let text = (await m.scrape()).text;
  assert.equal(sample(text, 'agent_readiness_jobs_waiting', { queue: 'batch-items' })?.value, '7');
  assert.equal(sample(text, 'agent_readiness_job_engine_up')?.value, '1');
  down = true;
  text = (await m.scrape()).text;
  assert.equal(sample(text, 'agent_readiness_job_engine_up')?.value, '0');
  assert.equal(sample(text, 'agent_readiness_jobs_waiting', { queue: 'batch-items' }), undefined, 'no stale figure');
});
