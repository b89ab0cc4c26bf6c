// Two service processes (src/main.js) sharing one Postgres database (a fresh one per run)
// and one Redis, scanning the test world, with both mailers sending to one SMTP sink:
//   - a burst of identical scans spread over both runs one upstream scan;
//   - the per-domain and per-IP limits hold across both;
//   - a report written by one is served by the other (page and badge);
//   - a CLI-vantage upload racing on both instances is accepted once;
//   - the outbox sends each mail once although both instances run mailers;
//   - the web form's progress stream on one follows the form's scan on the other.
// Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped loudly without them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { Redis } from 'ioredis';
import { spawnServices, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest, type RawResponse } from '../hostile/lib/raw-http.ts';
import { SmtpSink } from '../scan-api/smtp-sink.ts';
import { htmlPage } from '../world/site.ts';
import { startWorld, type World } from '../world/index.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean).join(' and ');
const skip = missing ? `${missing} not set: the two-instance test needs a shared PostgreSQL and Redis` : undefined;

const run = randomBytes(4).toString('hex');
const redisPrefix = `test-mi-${run}:`;
/** Digits for host names: the world maps `mi-count--<digits>` to the counting site. */
const tag = String(Date.now() % 1_000_000);
const d = (k: number | string) => `mi-count--${k}${tag}.world-fixtures.com`;
const lead = { name: 'Multi Instance', email: 'multi@world-fixtures.com' };
/** robots.txt requests per domain on the world site: a measure of upstream scans. */
const robotsHits = new Map<string, number>();

// Skipped test by test (not the describe), so the runner lists each one as skipped.
const opt = skip ? { skip } : {};

describe('several instances on one Postgres and one Redis', () => {
  let world: World;
  let a: Child;
  let b: Child;
  let sink: SmtpSink;
  let dir: string;
  let dbName: string;
  const archived = new Set<string>();

  before(async () => {
    if (skip) return;
    dir = mkdtempSync(path.join(os.tmpdir(), 'multi-instance-'));
    world = await startWorld({
      handlers: {
        'mi-count': (req, res, info) => {
          if (req.url === '/robots.txt') {
            robotsHits.set(info.domain, (robotsHits.get(info.domain) ?? 0) + 1);
            res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
            return;
          }
          res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(htmlPage());
        },
      },
    });
    // A fresh database, and a Redis key prefix of its own (REDIS_KEY_PREFIX), so nothing of
    // another run is shared and nothing of anyone else's is flushed.
    dbName = `multi_instance_${run}`;
    const admin = knex({ client: 'pg', connection: DB });
    await admin.raw(`CREATE DATABASE ${dbName}`);
    await admin.destroy();

    sink = new SmtpSink();
    await sink.start(await SmtpSink.freePort());
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: url.toString(), REDIS_URL: REDIS!, REDIS_KEY_PREFIX: redisPrefix, SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_DIR: path.join(dir, 'mail'),
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!,
      NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!, TRUST_PROXY: 'true', RATE_LIMIT_PER_DOMAIN: '3/60', RATE_LIMIT_PER_IP: '5/1800',
      BASE_URL: 'http://multi.test', LOG_LEVEL: 'warn',
      // One lead scans many times here; the per-recipient cap has its own test (mail-cap.test.ts).
      MAIL_PER_RECIPIENT_PER_DAY: '1000',
    };
    // Both start at once on the empty database: their migrations race, and both must come up.
    [a, b] = await spawnServices([env, env], { timeoutMs: 120_000 });
  });

  after(async () => {
    if (skip) return;
    await a?.stop();
    await b?.stop();
    await sink?.stop();
    await world?.stop();
    const redis = new Redis(REDIS!);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    if (dbName) {
      const admin = knex({ client: 'pg', connection: DB });
      await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.destroy();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const scan = async (on: Child, domain: string, ip: string, extra: Record<string, unknown> = {}): Promise<RawResponse & { body: Record<string, unknown> }> => {
    const res = await rawRequest(on.url, {
      method: 'POST', path: '/scan', timeoutMs: 60_000,
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({ domain, lead, ...extra }),
    });
    conforms(res);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    if (typeof body.reportUrl === 'string') archived.add(String(body.scanId));
    return { ...res, body };
  };

  test('a burst of identical scans spread over both instances runs one upstream scan', opt, async () => {
    const cal = d(1);
    const calRes = await scan(a, cal, '198.51.100.1');
    assert.equal(calRes.status, 200, calRes.text);
    const perScan = robotsHits.get(cal) ?? 0;
    assert.ok(perScan > 0, 'the calibration scan never reached the world site');

    const target = d(2);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => scan(i % 2 ? b : a, target, `198.51.100.${10 + i}`)));
    for (const r of burst) assert.equal(r.status, 200, r.text);
    assert.equal(robotsHits.get(target), perScan, `upstream robots.txt requests: ${robotsHits.get(target)} (one scan makes ${perScan})`);
    assert.equal(burst.filter((r) => r.body.coalesced === false).length, 1, 'exactly one response is the fresh scan');
    assert.equal(new Set(burst.map((r) => r.body.scanId)).size, 1, 'everyone got the same report');
  });

  test('the per-domain limit (3 then 1 a minute) holds across both instances', opt, async () => {
    const target = d(3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await scan(i % 2 ? b : a, target, `203.0.113.${20 + i}`, { fresh: true });
      statuses.push(r.status);
      if (r.status === 429) assert.match(String(r.headers['retry-after']), /^\d+$/);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });

  test('the per-IP limit (5 per 30 minutes) holds across both instances', opt, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await scan(i % 2 ? a : b, d(`4${i}`), '192.0.2.77');
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  });

  test('a report written by one instance is served by the other (page, JSON and badge)', opt, async () => {
    const target = d(5);
    const r = await scan(a, target, '198.51.100.200');
    assert.equal(r.status, 200, r.text);
    const id = String(r.body.scanId);
    const page = await rawRequest(b.url, { method: 'GET', path: `/r/${id}`, headers: { Accept: 'text/html' } });
    conforms(page);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(target.replace(/\./g, '\\.')));
    const json = await rawRequest(b.url, { method: 'GET', path: `/r/${id}`, headers: { Accept: 'application/json' } });
    conforms(json);
    assert.equal((JSON.parse(json.text) as { scanId: string }).scanId, id);
    const badge = await rawRequest(b.url, { method: 'GET', path: `/badge/${target}.svg` });
    conforms(badge);
    assert.equal(badge.status, 200);
  });

  test('a CLI-vantage upload racing on both instances is accepted exactly once', opt, async () => {
    const target = d(6);
    const r = await scan(b, target, '198.51.100.201');
    assert.equal(r.status, 200, r.text);
    const id = String(r.body.scanId);
    const upload = JSON.stringify({ domain: target, uploadToken: r.body.cliUploadToken, observations: [{ key: 'control:browser', status: 200, bodyBytes: 100, timingMs: 10 }] });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      rawRequest((i % 2 ? a : b).url, { method: 'POST', path: `/r/${id}/cli-vantage`, headers: { 'Content-Type': 'application/json' }, body: upload })));
    for (const res of answers) conforms(res);
    const statuses = answers.map((x) => x.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${statuses.join(', ')}`);
    assert.equal(statuses.filter((s) => s === 409).length, 9, `statuses: ${statuses.join(', ')}`);
  });

  test('the outbox sends each report mail exactly once with both instances running mailers', opt, async () => {
    assert.ok(archived.size >= 5, `only ${archived.size} archived scans`);
    const count = (id: string) => sink.received.filter((m) => m.raw.includes(id)).length;
    // Wait until the outbox has every archived report's mail marked sent: from then on no mailer
    // may send it again, so a duplicate would already be in the sink.
    const url = new URL(DB!);
    url.pathname = `/${dbName}`;
    const db = knex({ client: 'pg', connection: url.toString() });
    try {
      const stop = Date.now() + 60_000;
      for (;;) {
        const rows = await db('mail_outbox').whereIn('scan_id', [...archived]).select('status');
        if (rows.length === archived.size && rows.every((r: { status: string }) => r.status === 'sent')) break;
        if (Date.now() > stop) assert.fail(`mails not all sent: ${JSON.stringify(rows)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await db.destroy();
    }
    for (const id of archived) assert.equal(count(id), 1, `report ${id} was mailed ${count(id)} times`);
    assert.equal(sink.received.length, archived.size);
  });

  test('the web form\'s progress stream on one instance follows a scan the form started on the other', opt, async () => {
    const id = randomUUID();
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? 'message', data: JSON.parse(e.data) as Record<string, unknown> }) });
    // The stream opens on b first, as the page opens it before the form is sent.
    const res = await fetch(`${b.url}/scan/progress/${id}`, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 200);
    const read = (async () => {
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) parser.feed(decoder.decode(r.value, { stream: true }));
    })();
    const form = await fetch(`${a.url}/`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': '198.51.100.77' },
      body: new URLSearchParams({ domain: d(77), name: lead.name, email: lead.email, progressId: id }),
    });
    assert.equal(form.status, 303, await form.text());
    await read; // b ends the stream when a's scan ends
    const phases = events.filter((e) => e.event === 'phase').map((e) => e.data.phase);
    assert.deepEqual([...new Set(phases)], ['robots', 'grid-networkA', 'grid-networkB', 'files', 'followups', 'scoring'], JSON.stringify(events));
    assert.deepEqual(events.at(-1), { event: 'end', data: { outcome: 'complete' } });
  });

  test('the shared limits and coalescing live under this run\'s REDIS_KEY_PREFIX', opt, async () => {
    const redis = new Redis(REDIS!);
    try {
      const keys = await redis.keys(`${redisPrefix}*`);
      assert.ok(keys.some((k) => k.startsWith(`${redisPrefix}ar:rl:`)), `rate-limit keys under the prefix: ${keys.slice(0, 5).join(', ')}`);
    } finally {
      redis.disconnect();
    }
  });
});
