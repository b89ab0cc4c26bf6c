// What the tests that run a batch through whole service processes share (test/faults/,
// test/multi-instance/): the service's environment in a test world, a partner key made with
// the operator token, the batch created and polled over the API (with a deadline, never a
// fixed sleep), its results read back, and the exactly-once verdict: every domain once in
// getBatchResults, and no domain archived more than once in the database.
import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { conforms } from './contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import type { World } from '../world/index.ts';

export const OPERATOR_TOKEN = 'operator-token-0123456789';

/** The environment a service process needs to scan the world (its proxies, names and CA). */
export function worldServiceEnv(world: World): Record<string, string> {
  return {
    NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!,
    SCAN_RESOLVE: world.env.SCAN_RESOLVE!, NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
    OPERATOR_TOKEN,
  };
}

/**
 * n distinct domains, copies of a few quick scenarios (`<scenario>--<tag><i>`): each is its own
 * site to the service (its own archive rows), all served by the one world.
 */
export function worldDomains(n: number, tag: string, scenarios: readonly string[] = ['open-basic', 'robots-blocks-all', 'generic-403-all-agents']): string[] {
  return Array.from({ length: n }, (_, i) => `${scenarios[i % scenarios.length]}--${tag}${i}.world-fixtures.com`);
}

/** A partner key, made over the operator's API. */
export async function partnerKey(url: string, dailyScans = 1000): Promise<string> {
  const res = await rawRequest(url, { method: 'POST', path: '/internal/api-keys', headers: { Authorization: `Bearer ${OPERATOR_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Faults', dailyScans }) });
  assert.equal(res.status, 201, res.text);
  return (JSON.parse(res.text) as { key: string }).key;
}

export async function createBatch(url: string, key: string, domains: readonly string[]): Promise<string> {
  const res = await rawRequest(url, { method: 'POST', path: '/batches', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ domains }), timeoutMs: 60_000 });
  conforms(res);
  assert.equal(res.status, 202, res.text);
  return (JSON.parse(res.text) as { batchId: string }).batchId;
}

export interface Progress { status: string; total: number; done: number; failed: number; [k: string]: unknown }

export async function batchProgress(url: string, key: string, id: string): Promise<Progress> {
  const res = await rawRequest(url, { method: 'GET', path: `/batches/${id}`, headers: { Authorization: `Bearer ${key}` } });
  conforms(res);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text) as Progress;
}

/**
 * Polls getBatch until `done(progress)` holds. `url` is read at each poll (a restarted
 * instance has a new one). A request that fails or times out (the fault under test may hold
 * the instance for a while) is retried until the deadline; the last error is in the message.
 */
export async function waitForBatch(url: () => string, key: string, id: string, done: (p: Progress) => boolean, what: string, timeoutMs: number): Promise<Progress> {
  const stop = Date.now() + timeoutMs;
  let last: Progress | undefined;
  let error: unknown;
  for (;;) {
    try {
      last = await batchProgress(url(), key, id);
      if (done(last)) return last;
    } catch (err) {
      error = err;
    }
    if (Date.now() > stop) assert.fail(`gave up after ${timeoutMs} ms waiting for ${what}: last progress ${JSON.stringify(last)}${error ? `, last error ${(error as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface ResultRow { domain: string; state: string; scanId?: string; [k: string]: unknown }

export async function batchResults(url: string, key: string, id: string): Promise<ResultRow[]> {
  const res = await rawRequest(url, { method: 'GET', path: `/batches/${id}/results`, headers: { Authorization: `Bearer ${key}` }, timeoutMs: 30_000 });
  conforms(res);
  assert.equal(res.status, 200, res.text);
  return res.text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
}

/** The ids of the archived scans of each domain (only domains with at least one). */
export async function archivedPerDomain(db: Knex, domains: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < domains.length; i += 500) {
    const rows: Array<{ domain: string; id: string }> = await db('scans').whereIn('domain', domains.slice(i, i + 500)).select('domain', 'id');
    for (const r of rows) out.set(r.domain, [...(out.get(r.domain) ?? []), r.id]);
  }
  return out;
}

/**
 * The verdict of every batch fault test: getBatchResults lists each domain exactly once, in
 * order, each `done` (a fault of ours is never a site's failure), and each domain was archived
 * exactly once, that archived scan being the one its result names. Returns the rows.
 */
export async function assertExactlyOnce(url: string, key: string, id: string, domains: readonly string[], db: Knex): Promise<ResultRow[]> {
  const rows = await batchResults(url, key, id);
  assert.deepEqual(rows.map((r) => r.domain), [...domains], 'every domain exactly once in the results, in order');
  const notDone = rows.filter((r) => r.state !== 'done');
  assert.deepEqual(notDone, [], 'every item done');
  const archived = await archivedPerDomain(db, domains);
  const wrong = domains.filter((d) => archived.get(d)?.length !== 1).map((d) => `${d}: ${archived.get(d)?.length ?? 0}`);
  assert.deepEqual(wrong, [], 'each domain archived exactly once');
  const elsewhere = rows.filter((r) => r.scanId !== archived.get(r.domain)![0]).map((r) => r.domain);
  assert.deepEqual(elsewhere, [], 'each result is the scan archived for its domain');
  return rows;
}

export interface LogLine { msg: string; err?: string; [k: string]: unknown }

/**
 * The JSON log lines of a service started with `stdout: 'pipe'`, kept as they come (and echoed
 * when FAULTS_LOG is set), so a test can report what the service said about the fault.
 */
export function collectLog(child: { process: { stdout: NodeJS.ReadableStream | null } }): LogLine[] {
  const lines: LogLine[] = [];
  let rest = '';
  child.process.stdout?.on('data', (d: Buffer) => {
    if (process.env.FAULTS_LOG) process.stdout.write(d);
    rest += d.toString();
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p) as LogLine);
      } catch {
        lines.push({ msg: p });
      }
    }
  });
  return lines;
}

/** How many lines' msg or err match each pattern, for a test's figures. */
export function countLog(lines: readonly LogLine[], patterns: Record<string, RegExp>): Record<string, number> {
  return Object.fromEntries(Object.entries(patterns).map(([k, re]) => [k, lines.filter((l) => re.test(`${l.msg} ${l.err ?? ''}`)).length]));
}
