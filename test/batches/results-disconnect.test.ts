// GET /batches/{id}/results when the client stops reading and then goes away: the response is
// backpressured (10,000 failed rows with long errors, about 23 MB, far more than the socket
// buffers of both ends hold, against a client that reads nothing), and the
// disconnect must free the stream at once, not leave the handler waiting for a drain that never
// comes. The service counts its open result streams (BatchService.openResultStreams).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import request from 'supertest';
import { testApp, type TestApp } from '../helpers/app.ts';
import { idleEngine, until } from '../jobs/engines.ts';
import { fakeScanner } from '../scan-api/fixtures.ts';


describe('a results stream whose client stops reading, then disconnects', () => {
  let t: TestApp;
  let server: http.Server;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent' }, {}, { jobs: idleEngine, scanner: fakeScanner() });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.close();
  });

  test('is released: the generator ends, nothing waits on the gone client', async () => {
    const key = (await t.services.keys.create('Big Partner', 10_000)).key;
    const domains = Array.from({ length: 10_000 }, (_, i) => `d${i}.results-disconnect-site.com`);
    const id = (await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains }).expect(202)).body.batchId as string;
    await t.ctx.db('batch_items').where({ batch_id: id }).update({ state: 'failed', error: JSON.stringify({ error: 'The scan could not complete.', detail: 'x'.repeat(2000) }) });
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`GET /batches/${id}/results HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAccept: application/x-ndjson\r\n\r\n`);
    // The head arrives; then the client reads nothing more.
    await new Promise<void>((resolve) => socket.once('data', (d: Buffer) => {
      assert.match(d.toString('latin1'), /^HTTP\/1\.1 200/);
      socket.pause();
      resolve();
    }));
    await until(() => t.services.batches.openResultStreams === 1, 'the stream open');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(t.services.batches.openResultStreams, 1, 'still streaming after a second: the response is backpressured');
    socket.destroy();
    await until(() => t.services.batches.openResultStreams === 0, 'the stream released after the disconnect', 10_000);
    // The service still answers the same results to a reader that reads.
    const all = await request(t.app).get(`/batches/${id}/results`).set('Authorization', `Bearer ${key}`).expect(200);
    assert.equal(all.text.trim().split('\n').length, 10_000);
    assert.equal(t.services.batches.openResultStreams, 0);
  });
});
