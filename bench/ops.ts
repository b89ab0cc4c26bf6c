// The operations surfaces of issue 38, side by side in one run (writes its section of
// bench/results.md; asserts nothing; `npm run bench` reports the figures against the targets):
//
// - listChanges over 100,000 stored events: 100 keys × 1,000 events, stored as the feed stores
//   them (seq order, one counter row), in one bulk insert so the set-up is quick; then pages of
//   100 read through the real app over HTTP (keep-alive, one client), from the start, from the
//   middle and from near the end of a key's events, and the operator's page over every key.
//   On SQLite (a file) always, and on PostgreSQL with BENCH_DATABASE_URL (or TEST_DATABASE_URL).
//   The query plan is printed: the page is an index range, not a scan.
// - a /metrics scrape: the CPU (process.cpuUsage, user + system) of ServiceMetrics.scrape() per
//   scrape, after counters have moved and with 20,000 jobs queued on the embedded engine (the
//   job gauges read them each scrape); and the same scrape through HTTP, wall time per request.
//
// Run alone with `node bench/ops.ts`, or within `npm run bench` (BENCH_ONLY=ops).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { pino } from 'pino';
import { Agent, request } from 'undici';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { buildContext } from '../src/server.ts';
import { startServices } from '../src/services.ts';
import { encodeCursor } from '../src/feed/cursor.ts';
import { writeSection } from './lib/results.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { fmt } from './lib/stats.ts';

const KEYS = 100;
const PER_KEY = 1000;
const TOKEN = 'bench-operator-token-0123456789';

export interface OpsBench {
  markdown: string;
  /** The slowest median page of the partner reads, per database. */
  pageMedianMs: Record<string, number>;
  scrapeCpuMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

async function startApp(env: Record<string, string>) {
  const config = loadConfig({ BASE_URL: 'http://bench.test', NETWORK_A_PROXY: 'http://127.0.0.1:9', OPERATOR_TOKEN: TOKEN, LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env });
  const ctx = await buildContext(config, pino({ level: 'silent' }));
  const services = startServices(ctx, { mailer: false, batches: false, watches: false, webhooks: false, changes: false });
  const server: Server = createApp(ctx, services).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ctx, services, url,
    async close() {
      await new Promise((r) => server.close(r));
      await services.stop();
      await ctx.db.destroy();
    },
  };
}

async function feedOn(label: string, databaseUrl: string): Promise<{ rows: string[]; worst: number }> {
  const app = await startApp({ DATABASE_URL: databaseUrl });
  const db = app.ctx.db;
  const keys = await Promise.all(Array.from({ length: KEYS }, (_, i) => app.services.keys.create(`bench ${i}`, 1000)));
  const body = (k: number, n: number) => JSON.stringify({
    id: `evt-00000000-0000-4000-8000-${String(k).padStart(12, '0')}.${n}`, type: 'readiness.changed', watchId: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`, domain: `site-${k}.bench-feed.com`,
    from: { scanId: '00000000-0000-4000-8000-000000000001', headline: 'open', score: 90, reportUrl: 'http://bench.test/r/00000000-0000-4000-8000-000000000001' },
    to: { scanId: '00000000-0000-4000-8000-000000000002', headline: 'agent-hostile', score: 40, reportUrl: 'http://bench.test/r/00000000-0000-4000-8000-000000000002' },
    changes: [{ kind: 'headline', text: 'The headline went from open to agent-hostile.' }], diffUrl: 'http://bench.test/r/a/diff/b',
  });
  // Keys interleaved as many watches' runs would write them: seq s belongs to key s % KEYS.
  const total = KEYS * PER_KEY;
  const at = new Date().toISOString();
  for (let s = 1; s <= total; s += 1000) {
    const chunk = Array.from({ length: 1000 }, (_, i) => {
      const seq = s + i;
      const k = seq % KEYS;
      return { seq, event_id: `evt-bench-${seq}`, key_id: keys[k]!.keyId, watch_id: `w-${k}`, body: body(k, Math.ceil(seq / KEYS)), created_at: at };
    });
    await db.batchInsert('change_events', chunk, 500);
  }
  await db('change_feed').where({ id: 1 }).update({ head: total });
  if (label === 'PostgreSQL') await db.raw('analyze change_events');

  const dispatcher = new Agent({ connections: 1 });
  const time = async (pathAndQuery: string, bearer: string, n = 40) => {
    const times: number[] = [];
    for (let i = 0; i < n + 5; i++) {
      const t0 = performance.now();
      const r = await request(`${app.url}${pathAndQuery}`, { dispatcher, headers: { authorization: `Bearer ${bearer}` } });
      const text = await r.body.text();
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`${pathAndQuery}: ${r.statusCode} ${text.slice(0, 200)}`);
      if (i >= 5) times.push(ms); // the first few warm the statement caches and the validator
    }
    return times;
  };
  const key = keys[37]!.key;
  const cases: Array<[string, string, string]> = [
    ['a key\'s first page (no cursor)', '/changes?limit=100', key],
    ['a key\'s page from the middle of its events', `/changes?limit=100&since=${encodeCursor(total / 2)}`, key],
    ['a key\'s last page (cursor near the head)', `/changes?limit=100&since=${encodeCursor(total - 5 * KEYS)}`, key],
    ['a key caught up (cursor at the head: empty page)', `/changes?limit=100&since=${encodeCursor(total)}`, key],
    ['the operator\'s page over every key, from the middle', `/changes?limit=100&since=${encodeCursor(total / 2)}`, TOKEN],
  ];
  const rows: string[] = [];
  let worst = 0;
  for (const [what, q, bearer] of cases) {
    const times = await time(q, bearer);
    if (bearer !== TOKEN) worst = Math.max(worst, median(times));
    rows.push(`| ${label} | ${what} | ${fmt(median(times), 2)} ms | ${fmt(p95(times), 2)} ms |`);
  }
  const keyId = keys[37]!.keyId;
  const plan = label === 'PostgreSQL'
    ? ((await db.raw(`explain select seq, body from change_events where seq > ${total / 2} and seq <= ${total} and key_id = '${keyId}' order by seq limit 101`)).rows as Array<Record<string, string>>).map((r) => Object.values(r)[0]).join(' / ')
    : ((await db.raw(`explain query plan select seq, body from change_events where seq > ${total / 2} and seq <= ${total} and key_id = '${keyId}' order by seq limit 101`)) as Array<{ detail: string }>).map((r) => r.detail).join(' / ');
  rows.push(`| ${label} | query plan of a key's page | ${plan.replace(/\|/g, '\\|')} | |`);
  await dispatcher.close();
  await app.close();
  return { rows, worst };
}

async function scrapeCost(dir: string): Promise<{ rows: string[]; cpuMs: number }> {
  const app = await startApp({ DATABASE_URL: `sqlite:${path.join(dir, 'metrics.sqlite')}` });
  const m = app.services.metrics;
  // Figures as a busy instance has them: counters moved, and 20,000 jobs queued on the engine.
  for (let i = 0; i < 5000; i++) {
    m.scan(i % 7 === 0 ? 'mcp' : 'site', ['open', 'partially-blocked', 'agent-hostile', 'contradictory', 'unknown'][i % 5]!, (i % 30) + 0.5);
    m.batchItems('done');
    m.delivery(i % 3 === 0 ? 'failed' : 'delivered');
    m.mail('sent');
  }
  await app.services.jobs.enqueueMany('batch-items', Array.from({ length: 20_000 }, (_, i) => ({ data: { b: 'bench', s: i }, opts: { jobId: `bench.${i}`, priority: 500, delayMs: i % 4 === 0 ? 3_600_000 : 0 } })));
  for (let i = 0; i < 20; i++) await m.scrape(); // warm
  const N = 300;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await m.scrape();
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / N;
  const bytes = (await m.scrape()).text.length;
  const dispatcher = new Agent({ connections: 1 });
  const wall: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    const r = await request(`${app.url}/metrics`, { dispatcher, headers: { authorization: `Bearer ${TOKEN}` } });
    await r.body.text();
    wall.push(performance.now() - t0);
  }
  await dispatcher.close();
  await app.close();
  return {
    cpuMs,
    rows: [
      `| CPU of one scrape (ServiceMetrics.scrape: job counts from the engine's 20,000 queued jobs, the default process metrics, the text), mean of ${N} | ${fmt(cpuMs, 3)} ms |`,
      `| GET /metrics over HTTP (one keep-alive client in this process), wall time median / p95 | ${fmt(median(wall), 2)} ms / ${fmt(p95(wall), 2)} ms |`,
      `| exposition size | ${fmt(bytes / 1024, 1)} KiB |`,
    ],
  };
}

export async function benchOps(env: NodeJS.ProcessEnv = process.env): Promise<OpsBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ops-'));
  const pageMedianMs: Record<string, number> = {};
  const feedRows: string[] = [];
  try {
    const sqlite = await feedOn('SQLite', `sqlite:${path.join(dir, 'feed.sqlite')}`);
    feedRows.push(...sqlite.rows);
    pageMedianMs.SQLite = sqlite.worst;
    const pg = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL;
    let dropPg: (() => Promise<void>) | undefined;
    if (pg) {
      const name = `bench_feed_${randomBytes(4).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: pg });
      await admin.raw(`create database ${name}`);
      dropPg = async () => {
        await admin.raw(`drop database if exists ${name} with (force)`);
        await admin.destroy();
      };
      const u = new URL(pg);
      u.pathname = `/${name}`;
      try {
        const r = await feedOn('PostgreSQL', u.toString());
        feedRows.push(...r.rows);
        pageMedianMs.PostgreSQL = r.worst;
      } finally {
        await dropPg();
      }
    } else feedRows.push('| PostgreSQL | **not measured**: set BENCH_DATABASE_URL | | |');
    const scrape = await scrapeCost(dir);
    const markdown = [
      '## Operations: the change feed and /metrics (`bench/ops.ts`)',
      '',
      `Run ${nowIso()} on ${describeMachine()}; load average ${os.loadavg()[0]!.toFixed(2)} at the end.`,
      '',
      `listChanges over ${(KEYS * PER_KEY).toLocaleString('en')} stored events (${KEYS} keys × ${PER_KEY.toLocaleString('en')}, interleaved), pages of 100 through the real app over HTTP (40 timed requests each, after 5 untimed). Target: a page under 50 ms, served by an index.`,
      '',
      '| database | page | median | p95 |',
      '|---|---|---|---|',
      ...feedRows,
      '',
      'A /metrics scrape. Target: under 5 ms of CPU.',
      '',
      '| figure | measured |',
      '|---|---|',
      ...scrape.rows,
    ].join('\n');
    return { markdown, pageMedianMs, scrapeCpuMs: scrape.cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = await benchOps();
  writeSection('ops', r.markdown);
  console.log(r.markdown);
}
