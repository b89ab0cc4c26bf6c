import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@cli-site.com' };
const obs = [
  { key: 'control:browser', status: 200, bodyBytes: 4000, timingMs: 80 },
  { key: 'grid:GPTBot', status: 200, bodyBytes: 3900, timingMs: 90 },
  { key: 'grid:NotARealAgent', status: 403 },
  { key: 'robots:txt', status: 200 },
];

describe('POST /r/{scanId}/cli-vantage', () => {
  let t: TestApp;
  // The fake engine stamps scannedAt with the real time; the attach window counts from it.
  let clock = Date.now();
  let n = 0;
  before(async () => {
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '1000/1800', RATE_LIMIT_PER_DOMAIN: '1000/60' }, { scanner: fakeScanner() });
    t.ctx.now = () => new Date(clock);
  });
  after(() => t.close());

  async function freshScan(): Promise<{ id: string; token: string; domain: string }> {
    const domain = `cli-${++n}.cli-site.com`;
    const res = await request(t.app).post('/scan').send({ domain, lead, fresh: true }).expect(200);
    return { id: res.body.scanId, token: res.body.cliUploadToken, domain };
  }

  test('200 attaches grid observations, drops keys outside the grid, and leaves verdict and score alone', async () => {
    const s = await freshScan();
    const before = await request(t.app).get(`/r/${s.id}`).set('Accept', 'application/json').expect(200);
    const res = await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: s.token, observations: obs }).expect(200).expect(conforms);
    assert.deepEqual(res.body, { ok: true, attached: 2, reportUrl: `http://agent-readiness.test/r/${s.id}` });
    const after = await request(t.app).get(`/r/${s.id}`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(after.body.cliVantage.selfReported, true);
    assert.deepEqual(after.body.cliVantage.observations.map((o: { key: string }) => o.key), ['control:browser', 'grid:GPTBot']);
    assert.deepEqual({ ...after.body, cliVantage: undefined }, { ...before.body, cliVantage: undefined });
    const page = await request(t.app).get(`/r/${s.id}`).expect(200);
    assert.match(page.text, /Your network/);
  });

  test('400 for an invalid id, a mismatched domain, no valid observation and more than 100', async () => {
    const s = await freshScan();
    await request(t.app).post('/r/not-a-uuid/cli-vantage').send({ domain: s.domain, uploadToken: s.token, observations: obs }).expect(400).expect(conforms);
    const mismatch = await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: 'other-site.com', uploadToken: s.token, observations: obs }).expect(400).expect(conforms);
    assert.equal(mismatch.body.domain, s.domain);
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: s.token, observations: [{ key: 'grid:Nobody', status: 200 }] }).expect(400).expect(conforms);
    const many = Array.from({ length: 101 }, () => ({ key: 'control:browser', status: 200 }));
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: s.token, observations: many }).expect(400).expect(conforms);
    // None of the refusals used up the one attach.
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: `https://www.${s.domain}/`, uploadToken: s.token, observations: obs }).expect(200).expect(conforms);
  });

  test('403 for a missing or wrong upload token', async () => {
    const s = await freshScan();
    const other = await freshScan();
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, observations: obs }).expect(403).expect(conforms);
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: other.token, observations: obs }).expect(403).expect(conforms);
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: `${s.token}x`, observations: obs }).expect(403).expect(conforms);
  });

  test('404 for an unknown report id', async () => {
    await request(t.app).post('/r/00000000-0000-4000-8000-00000000abcd/cli-vantage').send({ domain: 'x-site.com', uploadToken: 'whatever', observations: obs }).expect(404).expect(conforms);
  });

  test('409 for a second upload, and exactly one of 20 concurrent uploads attaches', async () => {
    const s = await freshScan();
    const body = { domain: s.domain, uploadToken: s.token, observations: obs };
    const results = await Promise.all(Array.from({ length: 20 }, () => request(t.app).post(`/r/${s.id}/cli-vantage`).send(body)));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 409).length, 19);
    for (const r of results) conforms(r as never);
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send(body).expect(409).expect(conforms);
  });

  test('410 once the report is older than 7 days', async () => {
    const s = await freshScan();
    const saved = clock;
    // The fake engine stamps scannedAt with the real time of the scan; step past it.
    clock = Date.now() + 7 * 24 * 3600 * 1000 + 60_000;
    try {
      await request(t.app).post(`/r/${s.id}/cli-vantage`).send({ domain: s.domain, uploadToken: s.token, observations: obs }).expect(410).expect(conforms);
    } finally {
      clock = saved;
    }
  });

  test('413 above 64 KB by Content-Length, and 415 for a non-JSON body', async () => {
    const s = await freshScan();
    const big = { domain: s.domain, uploadToken: s.token, observations: [{ key: 'control:browser', status: 200, error: 'x'.repeat(70 * 1024) }] };
    await request(t.app).post(`/r/${s.id}/cli-vantage`).send(big).expect(413).expect(conforms);
    await request(t.app).post(`/r/${s.id}/cli-vantage`).set('content-type', 'text/plain').send('hello').expect(415).expect(conforms);
  });

  test('413 for a chunked body past 64 KB (4 MB sent without Content-Length)', async () => {
    const s = await freshScan();
    const server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/r/${s.id}/cli-vantage`, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
        let sent = 0;
        let done = false;
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c) => { body += c; });
          res.on('end', () => { done = true; resolve({ status: res.statusCode!, body, sent }); });
        });
        req.on('error', (e) => { if (!done) reject(e); });
        req.write(`{"domain":"${s.domain}","uploadToken":"${s.token}","observations":[{"key":"control:browser","status":200,"error":"`);
        const chunk = 'y'.repeat(8 * 1024);
        // Up to 4 MB; the server must answer long before, without buffering it all.
        const pump = () => {
          while (!done && sent < 4 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) { req.once('drain', pump); return; }
          }
          if (!done) req.end('"}]}');
        };
        pump();
      });
      assert.equal(result.status, 413);
      // body-parser discards (never buffers) what follows the limit and answers once the
      // request ends; the point here is the refusal of a body that declared no length.
      assert.ok(result.sent > 64 * 1024);
      assert.match(result.body, /larger than 64 KB/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
