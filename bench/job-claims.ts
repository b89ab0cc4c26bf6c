// What one claim of the embedded job engine costs with 20,000 jobs queued (a batch of 10,000
// and as many more waiting), side by side in one run: our queue table (src/jobs/embedded-store.ts,
// a partial index of the ready jobs) and liteque 0.8's attemptDequeue, which the engine used
// until December 2026 (OR'd status and availability conditions ordered by priority and
// createdAt: the whole queue scanned and sorted per claim). Each on a SQLite file of its own
// with 20,000 ready jobs of mixed priorities and 5,000 delayed ones; `claims` claims, each
// finished at once as a completed job is, each claim timed alone (the statements are
// synchronous, on the event loop). Asserts nothing; `npm run bench` reports it against < 1 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrateDB, SqliteQueue, type buildDBClient } from 'liteque';
import { openStore } from '../src/jobs/embedded-store.ts';
import { writeSection } from './lib/results.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { fmt } from './lib/stats.ts';

export interface ClaimCost { name: string; medianMs: number; p95Ms: number; meanMs: number }

const QUEUED = 20_000;
const DELAYED = 5_000;

function summarise(name: string, times: number[]): ClaimCost {
  const s = [...times].sort((a, b) => a - b);
  return { name, medianMs: s[Math.floor(s.length / 2)]!, p95Ms: s[Math.floor(s.length * 0.95)]!, meanMs: s.reduce((a, b) => a + b, 0) / s.length };
}

async function ours(file: string, claims: number): Promise<ClaimCost> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const store = openStore(db);
  const now = Date.now();
  const job = (i: number, delayMs: number) => ({ queue: 'batch-items', jobId: `b.${i}`, data: JSON.stringify({ b: 'bench', s: i }), priority: i % 3 === 0 ? 300 : 500, delayMs, attempts: 3, backoffMs: 5000 });
  for (let i = 0; i < QUEUED; i += 1000) store.add(Array.from({ length: 1000 }, (_, k) => job(i + k, 0)), now);
  store.add(Array.from({ length: DELAYED }, (_, k) => job(QUEUED + k, 3_600_000)), now);
  const times: number[] = [];
  for (let i = 0; i < claims; i++) {
    const t0 = performance.now();
    const t = Date.now();
    store.promote(t);
    const c = store.claim('batch-items', 'bench:1', t + 30_000);
    times.push(performance.now() - t0);
    if (!c) throw new Error('nothing to claim');
    store.finish(c);
  }
  db.close();
  return summarise('queue table of our own (partial index of ready jobs)', times);
}

async function liteque(file: string, claims: number): Promise<ClaimCost> {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite);
  // As the old adapter ran it: drizzle's transaction(fn) as fn(db) (better-sqlite3 ≥ 11.10 refuses async transactions).
  const lq = new Proxy(db, { get: (t, p, r) => (p === 'transaction' ? (fn: (tx: unknown) => unknown) => fn(t) : Reflect.get(t, p, r)) }) as unknown as ReturnType<typeof buildDBClient>;
  migrateDB(lq);
  const q = new SqliteQueue<unknown>('batch-items', lq, { defaultJobArgs: { numRetries: 3 }, keepFailedJobs: false });
  sqlite.exec('begin');
  for (let i = 0; i < QUEUED + DELAYED; i++) {
    await q.enqueue({ d: { b: 'bench', s: i }, j: `b.${i}`, a: 3, b: 5000 }, { idempotencyKey: `b.${i}`, priority: i % 3 === 0 ? 300 : 500, delayMs: i >= QUEUED ? 3_600_000 : 0 });
  }
  sqlite.exec('commit');
  const times: number[] = [];
  for (let i = 0; i < claims; i++) {
    const t0 = performance.now();
    const c = await q.attemptDequeue({ timeoutSecs: 30 });
    times.push(performance.now() - t0);
    if (!c) throw new Error('nothing to claim');
    await q.finalize(c.id, c.allocationId, 'completed');
  }
  sqlite.close();
  return summarise('liteque 0.8 attemptDequeue (the engine until December 2026)', times);
}

export async function benchJobClaims(claims = 2000): Promise<{ markdown: string; ours: ClaimCost; liteque: ClaimCost }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-claims-'));
  const started = nowIso();
  try {
    const a = await ours(path.join(dir, 'ours.sqlite'), claims);
    const b = await liteque(path.join(dir, 'liteque.sqlite'), claims);
    const markdown = [
      '## Claims of the embedded job engine at 20,000 queued jobs (`npm run bench`, bench/job-claims.ts)',
      '',
      `Measured ${started} on ${describeMachine()}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}. ${fmt(QUEUED)} ready jobs of two priorities and ${fmt(DELAYED)} delayed ones per SQLite file (WAL, synchronous NORMAL); ${fmt(claims)} claims each, each finished at once; the time of the claim alone (due jobs promoted, the next one taken under a lease).`,
      '',
      '| claim | target | median | p95 | mean |',
      '|---|---|---|---|---|',
      ...[a, b].map((c) => `| ${c.name} | < 1 ms | ${fmt(c.medianMs, 3)} ms | ${fmt(c.p95Ms, 3)} ms | ${fmt(c.meanMs, 3)} ms |`),
    ].join('\n');
    return { markdown, ours: a, liteque: b };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = await benchJobClaims();
  writeSection('job-claims', r.markdown);
  console.log(r.markdown);
}
