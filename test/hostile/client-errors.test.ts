// What Node's HTTP parser refuses before any route runs still gets the spec's Error shape:
// a status line, a JSON body with `error` and `hint`, Connection: close. Node's default is a
// bare "400 Bad Request" with no body (the fuzz suite met it on a DELETE with unframed bytes).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { hostileApp, type HostileApp } from './lib/hostile-app.ts';

/** Writes raw bytes and resolves with everything the server sent until it closed. */
function exchange(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (d) => { answer += d.toString('latin1'); });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const cases: Array<{ name: string; bytes: string; status: number }> = [
  { name: 'bytes after a request that said Connection: close (an unframed DELETE body)', bytes: 'DELETE /batches/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n{"a":1}', status: 400 },
  { name: 'a Content-Length that is not a number', bytes: 'POST /scan HTTP/1.1\r\nHost: a\r\nContent-Length: ten\r\n\r\n', status: 400 },
  { name: 'both Content-Length and Transfer-Encoding (request smuggling shape)', bytes: 'POST /scan HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400 },
  { name: 'a request line that is not HTTP', bytes: 'HELLO THERE\r\n\r\n', status: 400 },
  { name: 'headers over the limit', bytes: `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
];

describe('requests the HTTP parser refuses get an Error-shaped answer', () => {
  let app: HostileApp;
  before(async () => { app = await hostileApp(); });
  after(async () => { await app.close(); });

  for (const c of cases) {
    test(c.name, async () => {
      const answer = await exchange(app.url, c.bytes);
      // The first response on the connection is ours; a route's later answer, if any, is never sent.
      const [head, ...rest] = answer.split('\r\n\r\n');
      const lines = head!.split('\r\n');
      assert.match(lines[0]!, new RegExp(`^HTTP/1\\.1 ${c.status} `), answer.slice(0, 200));
      assert.ok(lines.some((l) => /^content-type: application\/json/i.test(l)), head);
      assert.ok(lines.some((l) => /^connection: close$/i.test(l)), head);
      const length = Number(lines.find((l) => /^content-length:/i.test(l))!.split(':')[1]);
      const body = JSON.parse(rest.join('\r\n\r\n').slice(0, length)) as Record<string, unknown>;
      assert.equal(typeof body.error, 'string');
      assert.equal(typeof body.hint, 'string');
      assert.deepEqual(Object.keys(body).sort(), ['error', 'hint']);
    });
  }
});
