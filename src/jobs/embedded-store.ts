// The embedded engine's queue: one table of ours (queue_jobs) in a local SQLite file, read and
// written with better-sqlite3's synchronous statements, each a single statement or a short
// transaction, so a claim is atomic even when two processes share the file.
//
// A job is in one of three states:
//   ready    may run now; claimed in (priority, id) order through a partial index of the
//            ready jobs alone, so a claim is an index seek however many jobs wait or are
//            delayed (bench/results.md: claim cost at 20,000 queued jobs);
//   delayed  runs at due_at (a delay, a backoff, a RetryLater);
//   running  claimed, with a lease until due_at that its process renews while it runs.
// `promote` turns due delayed jobs and lapsed running ones (their process died) into ready
// ones through a second partial index (due_at of the jobs not ready); a lapsed run counts in
// `lost`. Finished jobs are deleted, so their id can be used again.
//
// A ready job that has lost ALONE_AFTER runs is a suspect: when a process dies, every job it ran
// loses a run, though one of them may have killed it. So suspects are claimed apart (a partial
// index of their own), and the engine runs each alone (embedded.ts): a death while a suspect
// runs alone is that suspect's doing, and a job that kills every process (a poison job) is given
// up after LOST_RUNS without taking the jobs that ran beside it down with it (they lose at most
// ALONE_AFTER runs beside it, then run alone and finish). A single crash makes no suspect, so
// the jobs it interrupted resume side by side at full speed.
//
// A claim also records its owner (host and pid): a process that starts on the same host
// promotes at once the running jobs of owners that are no longer alive (a restart after a
// crash resumes without waiting for their leases); others' jobs wait for their leases.
//
// Each claim writes a fresh token; every later write of that run names it, so a run whose lease
// lapsed and whose job was claimed again cannot overwrite the newer run's outcome.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { LOST_RUNS } from './port.ts';

/** Lost runs after which a job runs alone. */
export const ALONE_AFTER = LOST_RUNS - 1;

export interface Claimed {
  id: number;
  token: string;
  job_id: string;
  data: string;
  attempts: number;
  backoff_ms: number;
  failures: number;
  lost: number;
  cancelled: number;
  /** Why it failed for good, when that could not be recorded yet (then only onFailed runs). */
  error: string | null;
}

export interface NewJob {
  queue: string;
  jobId: string;
  data: string;
  priority: number;
  delayMs: number;
  attempts: number;
  backoffMs: number;
}

const SCHEMA = `
create table if not exists queue_jobs (
  id integer primary key,
  queue text not null,
  job_id text not null,
  data text not null,
  priority integer not null,
  state text not null,
  due_at integer not null,
  attempts integer not null,
  backoff_ms integer not null,
  failures integer not null default 0,
  lost integer not null default 0,
  cancelled integer not null default 0,
  token text,
  owner text,
  error text,
  unique (queue, job_id)
);
drop index if exists queue_jobs_ready;
drop index if exists queue_jobs_ready_clean;
drop index if exists queue_jobs_ready_suspect;
create index if not exists queue_jobs_ready_plain on queue_jobs (queue, priority, id) where state = 'ready' and lost < ${ALONE_AFTER};
create index if not exists queue_jobs_ready_alone on queue_jobs (queue, priority, id) where state = 'ready' and lost >= ${ALONE_AFTER};
create index if not exists queue_jobs_due on queue_jobs (due_at) where state <> 'ready';
`;

export type Store = ReturnType<typeof openStore>;

export function openStore(db: Database.Database) {
  db.exec(SCHEMA);
  migrateLitequeLayout(db);
  const columns = (db.prepare('pragma table_info(queue_jobs)').all() as Array<{ name: string }>).map((c) => c.name);
  for (const c of ['owner', 'error']) if (!columns.includes(c)) db.exec(`alter table queue_jobs add column ${c} text`);
  const s = {
    insert: db.prepare(`insert into queue_jobs (queue, job_id, data, priority, state, due_at, attempts, backoff_ms)
      values (@queue, @jobId, @data, @priority, @state, @dueAt, @attempts, @backoffMs) on conflict (queue, job_id) do nothing`),
    promote: db.prepare(`update queue_jobs set state = 'ready', lost = lost + (state = 'running'), token = null
      where state <> 'ready' and due_at <= ?`),
    claim: db.prepare<[string, string, number, string]>(`update queue_jobs set state = 'running', token = ?, owner = ?, due_at = ?
      where id = (select id from queue_jobs where queue = ? and state = 'ready' and lost < ${ALONE_AFTER} order by priority, id limit 1)
      returning id, token, job_id, data, attempts, backoff_ms, failures, lost, cancelled, error`),
    claimSuspect: db.prepare<[string, string, number, string]>(`update queue_jobs set state = 'running', token = ?, owner = ?, due_at = ?
      where id = (select id from queue_jobs where queue = ? and state = 'ready' and lost >= ${ALONE_AFTER} order by priority, id limit 1)
      returning id, token, job_id, data, attempts, backoff_ms, failures, lost, cancelled, error`),
    suspect: db.prepare<[string]>(`select 1 from queue_jobs where queue = ? and state = 'ready' and lost >= ${ALONE_AFTER} limit 1`),
    owners: db.prepare(`select distinct owner from queue_jobs where state = 'running' and owner is not null`),
    orphan: db.prepare<[string]>(`update queue_jobs set state = 'ready', lost = lost + 1, token = null, owner = null where state = 'running' and owner = ?`),
    renew: db.prepare<[number, number, string]>(`update queue_jobs set due_at = ? where id = ? and token = ? and state = 'running'`),
    finish: db.prepare<[number, string]>('delete from queue_jobs where id = ? and token = ?'),
    later: db.prepare<[number, number, string | null, number, string]>(`update queue_jobs set state = 'delayed', due_at = ?, failures = failures + ?,
      error = coalesce(?, error), token = null where id = ? and token = ?`),
    cancelWaiting: db.prepare<[string, string]>(`delete from queue_jobs where queue = ? and job_id = ? and state <> 'running'`),
    // Counted through the partial indexes (ready jobs apart, the rest by due time) rather than
    // the whole table with its payloads: a /metrics scrape at 20,000 queued jobs stays cheap.
    // A delayed job already due is as good as ready: promote() turns it so at the next claim.
    countReady: db.prepare(`select queue, count(*) as n from queue_jobs indexed by queue_jobs_ready_plain where state = 'ready' and lost < ${ALONE_AFTER} group by queue`),
    countReadyAlone: db.prepare(`select queue, count(*) as n from queue_jobs indexed by queue_jobs_ready_alone where state = 'ready' and lost >= ${ALONE_AFTER} group by queue`),
    countOthers: db.prepare<[{ now: number }]>(`select queue, state = 'running' as running, due_at <= @now as due, count(*) as n
      from queue_jobs indexed by queue_jobs_due where state <> 'ready' group by queue, running, due`),
    cancelRunning: db.prepare<[string, string]>(`update queue_jobs set cancelled = 1 where queue = ? and job_id = ? and state = 'running'`),
  };
  const insertMany = db.transaction((jobs: readonly NewJob[], now: number) => {
    for (const j of jobs) s.insert.run({ ...j, state: j.delayMs > 0 ? 'delayed' : 'ready', dueAt: now + j.delayMs });
  });
  const renewAll = db.transaction((runs: ReadonlyArray<{ id: number; token: string }>, until: number) => {
    for (const r of runs) s.renew.run(until, r.id, r.token);
  });
  return {
    /** Adds jobs, all or none; an id already in the queue is left as it is. */
    add(jobs: readonly NewJob[], now: number): void {
      insertMany(jobs, now);
    },
    /** Promotes due delayed jobs and lapsed runs to ready. */
    promote(now: number): void {
      s.promote.run(now);
    },
    /** Whether one of these queues has a suspect ready (a job that lost ALONE_AFTER runs). */
    hasSuspect(queues: Iterable<string>): boolean {
      for (const q of queues) if (s.suspect.get(q) !== undefined) return true;
      return false;
    },
    /** The next ready job of `queue` (a suspect, or one that never lost a run), now running under a lease until `leaseUntil`. */
    claim(queue: string, owner: string, leaseUntil: number, suspect = false): Claimed | undefined {
      return (suspect ? s.claimSuspect : s.claim).get(randomBytes(9).toString('base64url'), owner, leaseUntil, queue) as Claimed | undefined;
    },
    /** Promotes the running jobs of owners `dead` says are gone (each a lost run); returns how many. */
    reclaimDead(dead: (owner: string) => boolean): number {
      let n = 0;
      for (const { owner } of s.owners.all() as Array<{ owner: string }>) if (dead(owner)) n += s.orphan.run(owner).changes;
      return n;
    },
    renew(runs: ReadonlyArray<{ id: number; token: string }>, until: number): void {
      if (runs.length > 0) renewAll(runs, until);
    },
    /** Done with (completed, cancelled, or its failure recorded for good): the job goes. */
    finish(run: { id: number; token: string }): void {
      s.finish.run(run.id, run.token);
    },
    /** Back to the queue at `at`; `failed` says whether the run counts as a failed attempt; `error`: given up for it, to report. */
    later(run: { id: number; token: string }, at: number, failed: boolean, error?: string): void {
      s.later.run(at, failed ? 1 : 0, error ?? null, run.id, run.token);
    },
    /** Jobs per queue now: waiting (ready or due), active (running), delayed (due later). */
    counts(now: number): Map<string, { queue: string; waiting: number; active: number; delayed: number }> {
      const out = new Map<string, { queue: string; waiting: number; active: number; delayed: number }>();
      const of = (queue: string) => {
        let c = out.get(queue);
        if (!c) out.set(queue, (c = { queue, waiting: 0, active: 0, delayed: 0 }));
        return c;
      };
      for (const r of [...s.countReady.all(), ...s.countReadyAlone.all()] as Array<{ queue: string; n: number }>) of(r.queue).waiting += Number(r.n);
      for (const r of s.countOthers.all({ now }) as Array<{ queue: string; running: number; due: number; n: number }>) {
        const c = of(r.queue);
        if (r.running) c.active += Number(r.n);
        else if (r.due) c.waiting += Number(r.n);
        else c.delayed += Number(r.n);
      }
      return out;
    },
    cancel(queue: string, jobId: string): void {
      s.cancelWaiting.run(queue, jobId);
      s.cancelRunning.run(queue, jobId);
    },
  };
}

/**
 * Until December 2026 the embedded engine kept its jobs in liteque's `tasks` table (with our
 * `embedded_jobs` beside it for attempts and cancels). A file of that layout is migrated once,
 * in one transaction: every job left in it moves to queue_jobs with its queue, id, payload,
 * priority, due time and failed attempts (a task claimed when its process died counts one lost
 * run, as it would have here); cancelled ones are dropped; then the old tables go.
 */
function migrateLitequeLayout(db: Database.Database): void {
  const has = (name: string) => db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
  if (!has('tasks')) return;
  const extra = has('embedded_jobs');
  db.transaction(() => {
    const rows = db.prepare(`select t.id, t.queue, t.payload, t.priority, t.status, t.availableAt as available_at
      ${extra ? ', e.failures, e.cancelled' : ', 0 as failures, 0 as cancelled'}
      from tasks t ${extra ? 'left join embedded_jobs e on e.task_id = t.id' : ''} order by t.id`).all() as Array<{
      queue: string; payload: string; priority: number; status: string; available_at: number | null; failures: number | null; cancelled: number | null;
    }>;
    const insert = db.prepare(`insert into queue_jobs (queue, job_id, data, priority, state, due_at, attempts, backoff_ms, failures, lost)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (queue, job_id) do nothing`);
    const now = Date.now();
    for (const r of rows) {
      if (r.cancelled) continue;
      let env: { d: unknown; j: string; a: number; b: number };
      try {
        env = JSON.parse(r.payload) as typeof env;
      } catch {
        continue; // not one of ours
      }
      if (typeof env.j !== 'string') continue;
      const due = r.available_at ?? now;
      insert.run(r.queue, env.j, JSON.stringify(env.d ?? null), r.priority, due > now ? 'delayed' : 'ready', due, env.a ?? 3, env.b ?? 1000, r.failures ?? 0, r.status === 'running' ? 1 : 0);
    }
    db.exec('drop table tasks');
    if (extra) db.exec('drop table embedded_jobs');
    if (has('__drizzle_migrations')) db.exec('drop table __drizzle_migrations');
  })();
}
