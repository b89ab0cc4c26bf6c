// One batch against real service processes scanning the test world (bench/batches.ts): the
// services' CPU from /proc, the first one's resident size sampled with the batch's progress, and
// optionally people's POST /scan timed while it runs. Asserts nothing.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { Child } from './child.ts';
import { cpuSeconds } from './machine.ts';
import { benchSite } from './sites.ts';
import { percentile } from './stats.ts';

export const OPERATOR_TOKEN = 'bench-operator-token-0123456789';

/**
 * The service environment for batch runs. Every world site answers at one address, so the
 * per-address politeness bound (default 2) would measure the bound, not the service: it is
 * raised to its maximum here, as for a batch of distinct hosts.
 */
export function batchServiceEnv(world: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production', NETWORK_A_PROXY: world.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.NETWORK_B_PROXY!, SCAN_RESOLVE: world.SCAN_RESOLVE!,
    NODE_EXTRA_CA_CERTS: world.NODE_EXTRA_CA_CERTS!, RATE_LIMIT_PER_IP: '100000/1', RATE_LIMIT_PER_DOMAIN: '100000/1',
    OPERATOR_TOKEN, FLEET_PER_ADDRESS_CONCURRENCY: '100', ...extra,
  };
}

const client = new Agent({ connections: 16, headersTimeout: 300_000, bodyTimeout: 300_000 });

async function json(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers ?? {}, ...(init.body !== undefined ? { body: init.body } : {}), dispatcher: client });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

export async function partnerKey(url: string, dailyScans: number): Promise<string> {
  const r = await json(`${url}/internal/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench Partner', dailyScans }) });
  if (r.status !== 201) throw new Error(`POST /internal/api-keys answered ${r.status}: ${JSON.stringify(r.body)}`);
  return String(r.body.key);
}

/** One POST /scan of a site no batch item shares (a person's scan); its latency in ms. */
export async function personScan(url: string, domain: string): Promise<number> {
  const t = performance.now();
  const r = await json(`${url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain, lead: { name: 'Bench Mark', email: 'bench@world-fixtures.com' } }) });
  if (r.status !== 200) throw new Error(`POST /scan of ${domain} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return performance.now() - t;
}

/** `count` person scans one after another (sites from `first`); their latencies. */
export async function personScans(url: string, first: number, count: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) ms.push(await personScan(url, benchSite(first + i)));
  return ms;
}

const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

export interface BatchRun {
  items: number;
  wallMs: number;
  /** CPU seconds of each service process during the batch (submit to done). */
  cpu: number[];
  done: number;
  failed: number;
  /** The first service's resident size against items finished, sampled as the batch ran. */
  rss: Array<{ finished: number; mib: number }>;
  /** Person scans timed while the batch ran (empty unless asked for). */
  duringMs: number[];
}

export interface BatchRunOptions {
  /** Sites from this copy number on (distinct per run, so nothing is coalesced with an earlier scan). */
  firstSite: number;
  items: number;
  /** Time this many person scans once the batch is a tenth through (sites from personFirst). */
  personScans?: number;
  personFirst?: number;
  pollMs?: number;
}

/** Submits one batch to the first service and follows it to the end. */
export async function runBatch(services: readonly Child[], key: string, o: BatchRunOptions): Promise<BatchRun> {
  const url = services[0]!.url;
  const body = Array.from({ length: o.items }, (_, i) => benchSite(o.firstSite + i)).join('\n');
  const cpu0 = services.map((s) => cpuSeconds(s.process.pid!));
  const started = performance.now();
  const created = await json(`${url}/batches`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body });
  if (created.status !== 202) throw new Error(`POST /batches answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = String(created.body.batchId);
  const rss: BatchRun['rss'] = [];
  let during: Promise<number[]> | undefined;
  for (;;) {
    const b = (await json(`${url}/batches/${id}`, { headers: { authorization: `Bearer ${key}` } })).body as { status: string; done: number; failed: number };
    rss.push({ finished: b.done + b.failed, mib: rssMiB(services[0]!.process.pid!) });
    if (o.personScans && !during && b.done + b.failed >= o.items / 10) during = personScans(url, o.personFirst ?? 0, o.personScans);
    if (b.status === 'done') {
      const wallMs = performance.now() - started;
      const cpu = services.map((s, i) => cpuSeconds(s.process.pid!) - cpu0[i]!);
      return { items: o.items, wallMs, cpu, done: b.done, failed: b.failed, rss, duringMs: (await during) ?? [] };
    }
    if (b.status !== 'running' && b.status !== 'queued') throw new Error(`the batch ended ${b.status}`);
    await new Promise((r) => setTimeout(r, o.pollMs ?? 250));
  }
}

/** Median resident size over the samples taken with from to `to` items finished (both ends counted: the last sample has them all). */
export function rssBetween(run: BatchRun, from: number, to: number): number {
  const xs = run.rss.filter((s) => s.finished >= from && s.finished <= to).map((s) => s.mib);
  return xs.length ? percentile(xs, 50) : NaN;
}
