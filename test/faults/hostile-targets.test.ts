// Targets that fight back, on the test world (HTTPS through the two loopback proxies):
// a 50 MB page, a gzip bomb, an endless redirect chain, a redirect loop, a target that
// trickles bytes, one that never answers; and networkB's proxy going down. The caps and
// the deadlines must hold, memory must stay flat, and a vantage that could not measure
// must never lower the score.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createEgress } from '../../src/net/egress.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { startWorld, type World } from '../world/index.ts';
import type { ExtraHandler } from '../world/index.ts';

const MiB = 1024 * 1024;
let bigBytesSent = 0;
const bomb = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });

/** Extra world sites (host label -> handler) that misbehave on purpose. */
const handlers: Record<string, ExtraHandler> = {
  // 50 MB of HTML, streamed in 64 KiB chunks; counts what it managed to send.
  'fault-big': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let left = 50 * MiB;
    const pump = () => {
      while (left > 0) {
        left -= chunk.length;
        bigBytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => {
      left = 0;
    });
    pump();
  },
  'fault-bomb': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
    res.end(bomb);
  },
  // /n redirects to /n+1 forever.
  'fault-redirects': (req, res) => {
    const n = Number((req.url ?? '/0').slice(1)) || 0;
    res.writeHead(302, { location: `/${n + 1}` }).end();
  },
  'fault-loop': (req, res) => {
    res.writeHead(302, { location: req.url === '/a' ? '/b' : '/a' }).end();
  },
  // One byte every 200 ms, forever (until the client hangs up).
  'fault-trickle': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => res.write('.'), 200);
    res.on('close', () => clearInterval(timer));
  },
  // Headers never come.
  'fault-silent': () => undefined,
};

describe('fault: hostile targets and a lost vantage, on the test world', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ handlers });
  });
  after(() => world.stop());

  const fetchVia = async (label: string, path = '/', o: { maxBodyBytes?: number; timeoutMs?: number } = {}) => {
    const { networkA, networkB, user } = world.egress();
    try {
      return await networkA.fetch({ url: `https://${world.domain(label)}${path}`, timeoutMs: o.timeoutMs ?? 5000, maxBodyBytes: o.maxBodyBytes ?? MiB, maxRedirects: 20 });
    } finally {
      await Promise.all([networkA.close(), networkB.close(), user.close()]);
    }
  };

  test('a 50 MB page is cut at the body cap, the sender is stopped early, and memory stays flat', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) {
      const res = await fetchVia('fault-big', '/', { maxBodyBytes: MiB });
      assert.ok(res.ok, JSON.stringify(res));
      assert.equal(res.bodyTruncated, true);
      assert.ok(res.body.length <= MiB, `kept ${res.body.length} bytes`);
    }
    const grown = (process.memoryUsage().rss - rssBefore) / MiB;
    assert.ok(grown < 64, `RSS grew by ${grown.toFixed(0)} MiB over five 50 MB pages`);
    // The connection was dropped: far less than 5 x 50 MB left the server.
    assert.ok(bigBytesSent < 5 * 50 * MiB * 0.5, `the server sent ${(bigBytesSent / MiB).toFixed(0)} MiB`);
  });

  test('a gzip bomb (64 MiB of zeros in a small body) is decoded only up to the cap', async () => {
    const res = await fetchVia('fault-bomb', '/', { maxBodyBytes: MiB });
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal(res.bodyTruncated, true);
    assert.ok(res.body.length <= MiB);
  });

  test('an endless redirect chain stops at the redirect limit', async () => {
    const res = await fetchVia('fault-redirects', '/0');
    assert.ok(!res.ok && res.errorCode === 'REDIRECT_LIMIT', JSON.stringify(res));
    assert.ok(res.redirects.length <= 6, `${res.redirects.length} hops followed`);
  });

  test('a redirect loop is recognised as a loop', async () => {
    const res = await fetchVia('fault-loop', '/a');
    assert.ok(!res.ok && (res.errorCode === 'REDIRECT_LOOP' || res.errorCode === 'REDIRECT_LIMIT'), JSON.stringify(res));
  });

  test('a target that trickles one byte every 200 ms is cut off at the request timeout', async () => {
    const t0 = performance.now();
    const res = await fetchVia('fault-trickle', '/', { timeoutMs: 1500 });
    const took = performance.now() - t0;
    assert.ok(!res.ok && res.errorCode === 'TIMEOUT', JSON.stringify(res).slice(0, 300));
    // A generous ceiling (a loaded machine adds seconds), not a speed claim.
    assert.ok(took < 1500 + 10_000, `the timeout did not hold (${took.toFixed(0)} ms)`);
  });

  test('a target that never sends headers is cut off at the request timeout', async () => {
    const res = await fetchVia('fault-silent', '/', { timeoutMs: 1000 });
    assert.ok(!res.ok && res.errorCode === 'TIMEOUT', JSON.stringify(res));
  });

  test('a whole scan of a hanging host ends by its deadline with an unknown headline, never a failure of the site', async () => {
    const { networkA, networkB, user } = world.egress();
    try {
      const deadlineMs = 2500;
      const t0 = performance.now();
      const { report } = await createScanner({ networks: { networkA, networkB }, deadlineMs, probeTimeoutMs: 1000 }).scan('hang.world-fixtures.com');
      const took = performance.now() - t0;
      assert.ok(took < deadlineMs + 3000, `the scan deadline did not hold (${took.toFixed(0)} ms)`);
      assert.equal(report.headline, 'unknown');
      assert.equal(report.vantagesConfirmed, false);
      assert.ok(report.checks.every((c) => c.status !== 'fail'), 'a check failed the site for a measurement the scanner could not make');
    } finally {
      await Promise.all([networkA.close(), networkB.close(), user.close()]);
    }
  });

  test("networkB's proxy down: its cells are transport-error, vantagesConfirmed is false, and the score is never lower", async () => {
    const site = world.domain('open-basic');
    const full = world.egress();
    const deadB = createEgress({ name: 'networkB', proxyUrl: 'http://127.0.0.1:9', resolve: world.resolveOverrides, ca: world.ca });
    try {
      const scanner = (networkB: typeof deadB) => createScanner({ networks: { networkA: full.networkA, networkB }, deadlineMs: 15_000, probeTimeoutMs: 3000 });
      const both = (await scanner(full.networkB).scan(site)).report;
      const onlyA = (await scanner(deadB).scan(site)).report;
      assert.equal(both.vantagesConfirmed, true, 'control: with both networks the scan is confirmed');
      assert.equal(onlyA.vantagesConfirmed, false);
      const probed = onlyA.matrix.filter((m) => m.edgeDoes !== null);
      assert.ok(probed.length > 0);
      for (const m of probed) assert.equal(m.edgeDoes!.networkB, 'transport-error', `${m.ua}: ${m.edgeDoes!.networkB}`);
      if (both.score.value !== null && onlyA.score.value !== null) {
        assert.ok(onlyA.score.value >= both.score.value, `score fell from ${both.score.value} to ${onlyA.score.value} when networkB could not measure`);
      }
      assert.ok(onlyA.checks.every((c) => c.status !== 'fail' || both.checks.find((b) => b.id === c.id)?.status === 'fail'), 'a check failed only because networkB was down');
    } finally {
      await Promise.all([full.networkA.close(), full.networkB.close(), full.user.close(), deadB.close()]);
    }
  });
});
