// The egress option behind `agent-readiness scan localhost:<port>`: it opens exactly one
// loopback origin and nothing else, and the guard keeps refusing loopback without it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgress } from '../../src/net/egress.ts';

const req = (url: string) => ({ url, timeoutMs: 15_000, maxBodyBytes: 4096, maxRedirects: 5 });

describe('egress allowLoopbackTarget (CLI localhost mode)', () => {
  let server: http.Server;
  let other: http.Server;
  let port = 0;
  let otherPort = 0;
  const hits: string[] = [];

  before(async () => {
    const listen = (s: http.Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
    server = http.createServer((rq, rs) => {
      hits.push(`${rq.headers.host} ${rq.url}`);
      if (rq.url === '/hop') return void rs.writeHead(302, { location: `http://localhost:${otherPort}/` }).end();
      rs.writeHead(200, { 'content-type': 'text/plain' }).end('local ok');
    });
    other = http.createServer((_rq, rs) => {
      hits.push('other');
      rs.end('should never be reached');
    });
    port = await listen(server);
    otherPort = await listen(other);
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await new Promise((r) => other.close(r));
  });

  test('without the option the guard refuses localhost and 127.0.0.1 even with direct egress', async () => {
    const e = createEgress({ name: 'direct', allowDirect: true });
    try {
      for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]) {
        const r = await e.fetch(req(url));
        assert.equal(r.ok, false);
        assert.equal(!r.ok && r.errorCode, 'GUARD_REFUSED');
      }
    } finally {
      await e.close();
    }
  });

  test('with the option exactly the named host and port is reached, with the name as Host', async () => {
    const e = createEgress({ name: 'local', allowLoopbackTarget: { host: 'localhost', port } });
    try {
      const r = await e.fetch(req(`http://localhost:${port}/x`));
      assert.equal(r.ok && r.status, 200);
      assert.equal(r.ok && r.body.toString(), 'local ok');
      assert.ok(hits.includes(`localhost:${port} /x`));
    } finally {
      await e.close();
    }
  });

  test('another loopback port, another loopback spelling and a public host stay unreachable', async () => {
    const e = createEgress({ name: 'local', allowLoopbackTarget: { host: 'localhost', port } });
    const before = hits.length;
    try {
      const otherPortTry = await e.fetch(req(`http://localhost:${otherPort}/`));
      assert.equal(!otherPortTry.ok && otherPortTry.errorCode, 'UNCONFIGURED');
      const redirected = await e.fetch(req(`http://localhost:${port}/hop`));
      assert.equal(!redirected.ok && redirected.errorCode, 'UNCONFIGURED');
      const spelling = await e.fetch(req(`http://127.0.0.1:${port}/`));
      assert.equal(spelling.ok, false);
      const world = await e.fetch(req('https://world-fixtures.com/'));
      assert.equal(!world.ok && world.errorCode, 'UNCONFIGURED');
      assert.ok(!hits.slice(before).includes('other'));
    } finally {
      await e.close();
    }
  });

  test('with direct egress too, the guard still refuses every other loopback target', async () => {
    const e = createEgress({ name: 'local', allowDirect: true, allowLoopbackTarget: { host: '127.0.0.1', port } });
    try {
      const ok = await e.fetch(req(`http://127.0.0.1:${port}/`));
      assert.equal(ok.ok && ok.status, 200);
      const refused = await e.fetch(req(`http://127.0.0.1:${otherPort}/`));
      assert.equal(!refused.ok && refused.errorCode, 'GUARD_REFUSED');
    } finally {
      await e.close();
    }
  });

  test('the option refuses a non-loopback host and a proxy', () => {
    assert.throws(() => createEgress({ name: 'x', allowLoopbackTarget: { host: '10.0.0.1' as 'localhost', port: 80 } }), /must be localhost/);
    assert.throws(() => createEgress({ name: 'x', proxyUrl: 'http://127.0.0.1:1', allowLoopbackTarget: { host: 'localhost', port: 80 } }), /direct only/);
  });
});
