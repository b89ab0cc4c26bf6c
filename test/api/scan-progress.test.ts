// The web form's progress stream, GET /scan/progress/{progressId}: a world scan submitted
// through POST / with a progressId streams its phases in order, with counts, to a stream
// opened first (as the page's script does) and replays them to one opened late; a request
// that joins a scan already running says so and hears that scan; malformed ids get the
// Error shape; nothing in the stream names the site or the lead.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import { gridCells } from '../../src/scanner/grid.ts';
import { SCAN_PHASES } from '../../src/scanner/progress.ts';
import { fakeResolver, steppedScanner, type SteppedScanner } from '../scan-api/fixtures.ts';

const worldMod = await import('../world/index.ts');
const engineMod = await import('../../src/scanner/engine.ts');

interface Ev { event: string; data: { phase?: string; status?: string; done?: number; total?: number; outcome?: string } }

function parse(text: string): Ev[] {
  const out: Ev[] = [];
  const parser = createParser({ onEvent: (e) => out.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }) });
  parser.feed(text);
  return out;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const lead = { name: 'Ada Lovelace', email: 'ada@progress-fixtures.com' };

/** Waits for a condition (never a fixed sleep); fails with `what` after a generous ceiling. */
async function until(done: () => boolean, what: string, ceilingMs = 30_000): Promise<void> {
  const stop = Date.now() + ceilingMs;
  while (!done()) {
    if (Date.now() > stop) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function post(t: TestApp, fields: Record<string, string>) {
  return request(t.app).post('/').set('Content-Type', 'application/x-www-form-urlencoded').set('Accept', 'text/html').send(form(fields));
}

function stream(t: TestApp, id: string) {
  // `.then` sends the request now; the body is read to its end (the `end` event closes it).
  return request(t.app).get(`/scan/progress/${id}`).set('Accept', 'text/event-stream').buffer(true).then((r) => r);
}

/** Phases in the order they first appear, and the checks every complete stream passes. */
function checkStream(events: Ev[]): string[] {
  const end = events.filter((e) => e.event === 'end');
  assert.equal(end.length, 1, 'one end event');
  assert.equal(events.at(-1)!.event, 'end', 'end comes last');
  assert.equal(end[0]!.data.outcome, 'complete');
  const last = new Map<string, Ev['data']>();
  const order: string[] = [];
  for (const e of events.filter((x) => x.event === 'phase')) {
    const d = e.data;
    assert.ok(d.phase && typeof d.done === 'number' && typeof d.total === 'number' && (d.status === 'running' || d.status === 'done'), JSON.stringify(d));
    assert.deepEqual(Object.keys(d).sort(), ['done', 'phase', 'status', 'total'], 'only phase names and counts');
    const before = last.get(d.phase!);
    if (!before) order.push(d.phase!);
    else assert.ok(d.done! >= before.done!, `${d.phase} counts never go back`);
    assert.ok(d.done! <= d.total!);
    last.set(d.phase!, d);
  }
  for (const [phase, d] of last) assert.deepEqual([phase, d.status, d.done], [phase, 'done', d.total], `${phase} ends done`);
  return order;
}

describe('GET /scan/progress/{progressId} with the real engine against the test world', () => {
  let world: Awaited<ReturnType<typeof worldMod.startWorld>>;
  let t: TestApp;
  before(async () => {
    world = await worldMod.startWorld();
    const { networkA, networkB } = world.egress();
    t = await testApp({ RATE_LIMIT_PER_IP: '100/60' }, {}, {
      scanner: engineMod.createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 }),
      scans: { resolve: (host) => resolveHost(host, world.resolveOverrides, 2000) },
    });
  });
  after(async () => {
    await t?.close();
    await world?.stop();
  });

  test('a world scan posted through the form streams robots, each grid, files, follow-ups and scoring in order, then ends', async () => {
    const id = randomUUID();
    const pending = stream(t, id);
    await until(() => t.services.progress.streams(id) === 1, 'the stream to open');
    const domain = world.domain('open-basic');
    const res = await post(t, { domain, ...lead, progressId: id }).expect(303).expect(conforms);
    assert.match(res.headers.location!, /^\/r\/[0-9a-f-]{36}$/);
    const sse = await pending;
    conforms(sse);
    assert.equal(sse.status, 200);
    assert.match(sse.headers['content-type']!, /^text\/event-stream/);
    assert.match(sse.headers['cache-control']!, /no-store/);
    assert.ok(!sse.text.includes(domain) && !sse.text.includes('progress-fixtures') && !sse.text.includes('Ada'), 'the stream names neither the site nor the lead');

    const events = parse(sse.text);
    const order = checkStream(events);
    assert.deepEqual(order, [...SCAN_PHASES], 'every phase, first seen in the order they start');
    const phases = events.filter((e) => e.event === 'phase').map((e) => e.data);
    const firstOf = (p: string) => phases.findIndex((d) => d.phase === p);
    const doneAt = (p: string) => phases.findIndex((d) => d.phase === p && d.status === 'done');
    for (const p of ['robots', 'grid-networkA', 'grid-networkB', 'files']) assert.ok(doneAt(p) < firstOf('followups'), `${p} is done before the follow-ups start`);
    assert.ok(doneAt('followups') < firstOf('scoring'), 'follow-ups are done before scoring starts');
    const grid = phases.filter((d) => d.phase === 'grid-networkA');
    assert.equal(grid[0]!.total, gridCells().length, 'the grid counts every cell of one network');
    assert.ok(grid.length > 2, 'the grid reports its requests as they finish, not only its start and end');

    // Opened after the scan: the same phases (latest of each) and the end, at once.
    const late = await stream(t, id);
    conforms(late);
    assert.deepEqual(checkStream(parse(late.text)), [...SCAN_PHASES]);
  });
});

describe('GET /scan/progress/{progressId}: coalescing, ids and media types', () => {
  let t: TestApp;
  let scanner: SteppedScanner;
  before(async () => {
    scanner = steppedScanner();
    t = await testApp({ RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner, scans: { resolve: fakeResolver() } });
  });
  after(async () => { await t?.close(); });

  test('a form that joins a scan of the same site already running says it waits, then hears that scan to its end', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const streams = [stream(t, first), stream(t, second)];
    await until(() => t.services.progress.streams(first) === 1 && t.services.progress.streams(second) === 1, 'both streams to open');
    const posts = [post(t, { domain: 'joined-scan.com', ...lead, progressId: first }).then((r) => r)];
    await until(() => t.services.progress.phases(first).some((u) => u.phase === 'grid-networkA' && u.done === 1), 'the first scan to report its grid');
    posts.push(post(t, { domain: 'https://www.joined-scan.com/', ...lead, progressId: second }).then((r) => r));
    await until(() => t.services.progress.phases(second).some((u) => u.phase === 'coalesced'), 'the second form to join');
    scanner.release();
    for (const r of await Promise.all(posts)) {
      assert.equal(r.status, 303);
      conforms(r);
    }
    assert.equal(scanner.calls.length, 1, 'one scan for both forms');
    const [a, b] = await Promise.all(streams);
    assert.deepEqual(checkStream(parse(a!.text)), [...SCAN_PHASES]);
    const joined = parse(b!.text);
    assert.deepEqual(checkStream(joined), ['coalesced', ...SCAN_PHASES], 'the waiting phase first, then the scan it shares');
    assert.deepEqual(joined[0]!.data, { phase: 'coalesced', status: 'running', done: 0, total: 1 });
    // It heard what the scan had done before it joined (robots.txt already done).
    assert.deepEqual(joined[1]!.data, { phase: 'robots', status: 'done', done: 2, total: 2 });
  });

  test('a form whose scan fails ends its stream with `failed`; a form without a valid id streams nothing', async () => {
    const id = randomUUID();
    const pending = stream(t, id);
    await until(() => t.services.progress.streams(id) === 1, 'the stream to open');
    await post(t, { domain: '10.0.0.1', ...lead, progressId: id }).expect(400).expect(conforms);
    const events = parse((await pending).text);
    assert.deepEqual(events, [{ event: 'end', data: { outcome: 'failed' } }]);

    const upper = randomUUID().toUpperCase();
    await post(t, { domain: '10.0.0.2', ...lead, progressId: upper }).expect(400).expect(conforms);
    assert.deepEqual(t.services.progress.phases(upper), [], 'an id that is not a lower-case v4 UUID is ignored');
  });

  test('malformed progress ids are 400 in the Error shape, before any stream opens', async () => {
    for (const bad of ['not-a-uuid', randomUUID().toUpperCase(), '6ba7b810-9dad-11d1-80b4-00c04fd430c8', `${randomUUID()}0`, '%2e%2e']) {
      const res = await request(t.app).get(`/scan/progress/${bad}`).set('Accept', 'text/event-stream').expect(400).expect(conforms);
      assert.equal(typeof res.body.error, 'string', bad);
      assert.match(res.headers['content-type']!, /application\/json/);
    }
  });

  test('a request that does not accept text/event-stream is 406 in the Error shape', async () => {
    const res = await request(t.app).get(`/scan/progress/${randomUUID()}`).set('Accept', 'application/json').expect(406).expect(conforms);
    assert.match(res.body.error, /event stream/);
  });

  test('GET /assets/home.js is the page script, plain JavaScript', async () => {
    const res = await request(t.app).get('/assets/home.js').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /^text\/javascript/);
    assert.match(res.text, /new EventSource\('\/scan\/progress\/' \+ id\)/);
    assert.match(res.text, /randomUUID/);
  });
});

describe('GET /scan/progress/{progressId}: streams per client address', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  before(async () => {
    t = await testApp({}, {}, { progress: { maxStreamsPerClient: 2 } });
    server = createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await t?.close();
  });

  const open = (id: string) => {
    const ac = new AbortController();
    return { ac, res: fetch(`${base}/scan/progress/${id}`, { headers: { accept: 'text/event-stream' }, signal: ac.signal }) };
  };

  test('one address holds at most its streams open; one more is a 429 with Retry-After, and a closed stream frees its slot', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const first = open(a);
    const second = open(b);
    assert.equal((await first.res).status, 200);
    assert.equal((await second.res).status, 200);
    await until(() => t.services.progress.streams(a) === 1 && t.services.progress.streams(b) === 1, 'both streams to open');
    const refused = await request(t.app).get(`/scan/progress/${c}`).set('Accept', 'text/event-stream').expect(429).expect(conforms);
    assert.match(refused.body.error, /Too many progress streams/);
    assert.equal(refused.headers['retry-after'], String(refused.body.retryAfterSeconds));
    assert.equal(t.services.progress.streams(c), 0, 'a refused stream never reaches the board');

    first.ac.abort();
    await until(() => t.services.progress.streams(a) === 0, 'the closed stream to leave the board');
    const third = open(c);
    assert.equal((await third.res).status, 200);
    second.ac.abort();
    third.ac.abort();
  });
});
